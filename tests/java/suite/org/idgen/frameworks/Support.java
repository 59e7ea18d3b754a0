package org.idgen.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.idgen.IdGenException;
import org.idgen.IdGenerator;
import org.idgen.IdParts;
import org.springframework.boot.json.JsonParserFactory;

/** What the suite's tests share: scratch directories, HTTP, the database, what the library says. */
final class Support {
    private Support() {}

    static final String BAD_CONFIG = "preset=snowflake worker=lease lease_ttl=banana";

    /** A fresh directory for a host lease (0700, owned by us: the library's trust rules), under target/. */
    static Path leaseDir(String what) {
        try {
            Path base = Paths.get("target", "lease-dirs").toAbsolutePath();
            Files.createDirectories(base);
            return Files.createTempDirectory(base, what + "-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static void removeTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** The library's message for BAD_CONFIG, asked of it directly. */
    static String badConfigMessage() {
        IdGenException e = assertThrows(IdGenException.class, () -> IdGenerator.open(BAD_CONFIG));
        assertTrue(e.getMessage().contains("lease_ttl"), e.getMessage());
        return e.getMessage();
    }

    /** The IdGenException somewhere in t's causes. */
    static IdGenException idgenCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IdGenException e) {
                return e;
            }
        }
        fail("no IdGenException among the causes of " + t);
        return null;
    }

    /** A Go-style duration of the library's config string ("1s", "1.5s", "250ms", "1m30s") in ms. */
    static long durationMs(String config, String key) {
        Matcher m = Pattern.compile("(?:^|\\s)" + key + "=(\\S+)").matcher(config);
        assertTrue(m.find(), key + " in " + config);
        Matcher part = Pattern.compile("([0-9.]+)(ms|us|µs|ns|h|m|s)").matcher(m.group(1));
        double ms = 0;
        while (part.find()) {
            double v = Double.parseDouble(part.group(1));
            ms += switch (part.group(2)) {
                case "h" -> v * 3_600_000;
                case "m" -> v * 60_000;
                case "s" -> v * 1_000;
                case "ms" -> v;
                default -> 0;
            };
        }
        return (long) Math.ceil(ms);
    }

    record Http(int status, String body) {
        Map<String, Object> json() {
            return JsonParserFactory.getJsonParser().parseMap(body);
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static Http get(int port, String path) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return new Http(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o, String what) {
        assertTrue(o instanceof Map, what + " is not an object: " + o);
        return (Map<String, Object>) o;
    }

    /** The PostgreSQL that make test-java-frameworks started (tests/servers/pg.sh): JDBC url, user, password. */
    record Pg(String url, String user, String password) {
        static Pg fromEnv() {
            String u = System.getenv("IDGEN_PG_URL");
            assertNotNull(u, "IDGEN_PG_URL is not set: run this suite with make test-java-frameworks, which starts PostgreSQL");
            URI uri = URI.create(u);
            String[] userInfo = uri.getUserInfo().split(":", 2);
            return new Pg("jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath(), userInfo[0], userInfo[1]);
        }
    }

    /**
     * Runs task(t) on 8 threads at once; each returns the ids it got, in
     * order. Checks that each thread's ids increase and none repeats; returns
     * them all.
     */
    static Set<Long> onEightThreads(IntFunction<List<Long>> task) throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int n = t;
                Callable<List<Long>> c = () -> {
                    go.await();
                    return task.apply(n);
                };
                results.add(pool.submit(c));
            }
            go.countDown();
            Set<Long> all = new HashSet<>();
            int total = 0;
            for (Future<List<Long>> f : results) {
                List<Long> ids = f.get();
                for (int i = 1; i < ids.size(); i++) {
                    assertTrue(ids.get(i) > ids.get(i - 1), "ids of one thread increase: " + ids.get(i - 1) + " then " + ids.get(i));
                }
                all.addAll(ids);
                total += ids.size();
            }
            assertEquals(total, all.size(), "no id repeated across the 8 threads");
            return all;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Decodes every id with the layout of config (a decode-only generator: lease=off) and checks its pair and time. */
    static void decodeAll(Set<Long> ids, String layoutConfig, long datacenter, long worker, long fromMs, long toMs) {
        try (IdGenerator layout = IdGenerator.open(layoutConfig + " lease=off")) {
            for (long id : ids) {
                IdParts p = layout.decode(id);
                assertEquals(worker, p.worker(), "worker of " + id);
                assertEquals(datacenter, p.datacenter(), "datacenter of " + id);
                assertTrue(p.unixMillis() >= fromMs - 1000 && p.unixMillis() <= toMs + 1000,
                        "time of " + id + ": " + p.instant() + " not within the test");
            }
        }
    }
}
