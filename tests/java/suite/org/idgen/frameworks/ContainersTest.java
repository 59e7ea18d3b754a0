package org.idgen.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The container case the peers fail: 16 JVMs, each pid 1 in a PID
 * namespace of its own ({@code unshare --pid --fork --mount-proc}, as in
 * Kubernetes), with one hostname and one MAC. Each leases its worker
 * through the starter ({@code worker=lease}) on one lease directory, and
 * again on PostgreSQL: no id repeats across 16 × 100,000. Beside them, the
 * same 16 JVMs with MyBatis-Plus's default generator, whose worker comes
 * from the MAC and the pid: how many of its ids repeat is reported, not
 * asserted (docs/BENCHMARKS.md).
 */
class ContainersTest {
    static final int JVMS = 16;
    static final int IDS = 100_000;

    @Test
    void sixteenPidOneJvmsOnOneLeaseDirectory() throws Exception {
        Path dir = Support.leaseDir("containers");
        List<long[]> got = run("starter", "preset=mybatis-plus worker=lease lease_dir=" + dir);
        assertEquals(JVMS * IDS, distinct(got), "no id repeats across the 16 containers");
    }

    @Test
    void sixteenPidOneJvmsOnPostgres() throws Exception {
        String url = System.getenv("IDGEN_PG_URL");
        assertTrue(url != null, "IDGEN_PG_URL is not set: run this suite with make test-java-frameworks");
        String table = "idgen_containers_" + Runtime.version().feature();
        List<long[]> got = run("starter", "preset=mybatis-plus worker=" + url + " lease_table=" + table);
        assertEquals(JVMS * IDS, distinct(got), "no id repeats across the 16 containers");
    }

    @Test
    void mybatisPlusDefaultGeneratorInTheSameContainers() throws Exception {
        List<long[]> got = run("mybatis-plus", "-");
        int distinct = distinct(got);
        System.out.printf("containers: MyBatis-Plus's DefaultIdentifierGenerator in %d pid-1 JVMs on one host: %d of %d ids repeat%n",
                JVMS, JVMS * IDS - distinct, JVMS * IDS);
    }

    /**
     * The ids of 16 children of mode, each checked to be pid 1. They start
     * at once, and once every one is ready (its generator made), a file
     * tells them all to go, so that they make their ids at the same time,
     * as containers that serve together do.
     */
    static List<long[]> run(String mode, String config) throws Exception {
        Path out = Files.createTempDirectory(Path.of("target"), "containers-");
        Path go = out.resolve("go");
        String java = ProcessHandle.current().info().command().orElse("java");
        String cp = System.getProperty("java.class.path");
        List<Process> ps = new ArrayList<>();
        for (int i = 0; i < JVMS; i++) {
            List<String> cmd = new ArrayList<>(List.of("unshare", "--pid", "--fork", "--mount-proc", java));
            if (Runtime.version().feature() >= 22) {
                cmd.add("--enable-native-access=ALL-UNNAMED");
            }
            cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-cp", cp, ContainerChild.class.getName(),
                    mode, config, Integer.toString(IDS), out.resolve("ids" + i).toString(), go.toString()));
            ps.add(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        }
        List<BufferedReader> outs = new ArrayList<>();
        List<StringBuilder> saids = new ArrayList<>();
        for (Process p : ps) {
            BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()));
            StringBuilder said = new StringBuilder();
            for (String line = r.readLine(); line != null && !line.equals("ready"); line = r.readLine()) {
                said.append(line).append('\n');
            }
            outs.add(r);
            saids.add(said);
        }
        Files.createFile(go);
        List<long[]> all = new ArrayList<>();
        for (int i = 0; i < JVMS; i++) {
            Process p = ps.get(i);
            String said = (saids.get(i) + new String(p.getInputStream().readAllBytes())).trim();
            assertEquals(0, p.waitFor(), "container " + i + ": " + said);
            assertTrue(said.endsWith("pid 1"), "container " + i + " runs as pid 1: " + said);
            all.add(read(out.resolve("ids" + i), IDS));
        }
        Support.removeTree(out);
        return all;
    }

    static long[] read(Path f, int n) throws Exception {
        long[] ids = new long[n];
        try (InputStream in = Files.newInputStream(f); DataInputStream d = new DataInputStream(new java.io.BufferedInputStream(in))) {
            for (int i = 0; i < n; i++) {
                ids[i] = d.readLong();
            }
        }
        return ids;
    }

    static int distinct(List<long[]> got) {
        Set<Long> all = new HashSet<>(JVMS * IDS * 2);
        for (long[] ids : got) {
            for (long id : ids) {
                assertTrue(id > 0, "a positive id: " + id);
                all.add(id);
            }
        }
        return all.size();
    }
}
