package org.idgen.frameworks;

import com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.idgen.IdGenerator;
import org.idgen.spring.boot.IdgenAutoConfiguration;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One container of {@link ContainersTest}: a JVM it starts under {@code
 * unshare --pid --fork --mount-proc}, so that it is pid 1 on a host whose
 * name and MAC every other one shares. It makes n ids and writes them to a
 * file (big-endian longs) once the file GO exists, then prints its pid:
 * {@code starter CONFIG N FILE GO} through a Spring application with the starter and {@code
 * idgen.config=CONFIG}; {@code mybatis-plus - N FILE GO} with MyBatis-Plus's
 * own default generator (its worker from the MAC and the pid).
 */
@SpringBootConfiguration
@ImportAutoConfiguration(IdgenAutoConfiguration.class)
public class ContainerChild {
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int n = Integer.parseInt(args[2]);
        long[] ids = new long[n];
        Path go = Path.of(args[4]);
        if (mode.equals("mybatis-plus")) {
            DefaultIdentifierGenerator g = new DefaultIdentifierGenerator();
            awaitGo(go);
            for (int i = 0; i < n; i++) {
                ids[i] = g.nextId(null);
            }
        } else {
            try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(ContainerChild.class)
                    .web(WebApplicationType.NONE)
                    .bannerMode(Banner.Mode.OFF)
                    .logStartupInfo(false)
                    .run("--idgen.config=" + args[1], "--logging.level.root=WARN")) {
                IdGenerator g = ctx.getBean(IdGenerator.class);
                awaitGo(go);
                for (int i = 0; i < n; i++) {
                    ids[i] = g.nextId();
                }
            }
        }
        try (OutputStream f = Files.newOutputStream(Path.of(args[3]));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(f))) {
            for (long id : ids) {
                out.writeLong(id);
            }
        }
        System.out.println("pid " + ProcessHandle.current().pid());
    }

    /** Says it is ready, then waits until the file go exists. */
    private static void awaitGo(Path go) throws InterruptedException {
        System.out.println("ready");
        System.out.flush();
        while (!Files.exists(go)) {
            Thread.sleep(0, 200_000);
        }
    }
}
