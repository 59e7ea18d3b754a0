package org.idgen.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import com.baomidou.mybatisplus.core.toolkit.GlobalConfigUtils;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.ibatis.session.SqlSessionFactory;
import org.idgen.ErrorCode;
import org.idgen.IdGen;
import org.idgen.IdGenException;
import org.idgen.IdGenerator;
import org.idgen.LeaseState;
import org.idgen.Stats;
import org.idgen.mybatisplus.IdgenIdentifierGenerator;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.json.JsonParserFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A Spring Boot web application with the starter, Actuator, a Prometheus
 * registry, MyBatis-Plus and H2: the generator beans by type and by name,
 * the configuration metadata, MyBatis-Plus ids from 8 threads, the metrics
 * at /actuator/prometheus, and the {@code idgen} health going DOWN when a
 * generator's lease store goes away and UP when it is back.
 */
@SpringBootTest(classes = App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "management.endpoints.web.exposure.include=health,prometheus",
        "management.endpoint.health.show-details=always",
        "management.prometheus.metrics.export.enabled=true",
        "spring.datasource.url=jdbc:h2:mem:starter;DB_CLOSE_DELAY=-1",
        "idgen.generators.sessions.config=preset=leaf worker=7 name=sessions"})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StarterTest {
    static final Path PRIMARY_DIR = Support.leaseDir("primary");
    static final Path ORDERS_DIR = Support.leaseDir("orders");
    static final String PRIMARY = "preset=snowflake worker=lease lease_dir=" + PRIMARY_DIR + " name=primary";
    static final String ORDERS = "preset=snowflake worker=lease lease_dir=" + ORDERS_DIR + " name=orders";

    @DynamicPropertySource
    static void idgen(DynamicPropertyRegistry r) {
        r.add("idgen.config", () -> PRIMARY);
        r.add("idgen.generators.orders.config", () -> ORDERS);
    }

    @Autowired
    ApplicationContext context;

    @Autowired
    IdGenerator primary;

    @Autowired
    @Qualifier("orders")
    IdGenerator orders;

    @Autowired
    @Qualifier("sessions")
    IdGenerator sessions;

    @Value("${local.server.port}")
    int port;

    @Test
    @Order(1)
    void runsOnTheBootAndJdkOfItsModule() {
        assertTrue(SpringBootVersion.getVersion().startsWith(System.getProperty("idgen.expect.boot")), SpringBootVersion.getVersion());
        assertEquals(Integer.getInteger("idgen.expect.jdk"), Runtime.version().feature());
    }

    @Test
    @Order(2)
    void generatorsAreBeansByTypeAndByName() {
        assertEquals(Set.of("idGenerator", "orders", "sessions"), context.getBeansOfType(IdGenerator.class).keySet());
        assertTrue(context.containsBean("idgenHealthIndicator"));
        assertSame(primary, context.getBean("idGenerator"));
        assertSame(primary, context.getBean(IdGenerator.class), "idgen.config's is the primary one");
        assertNotSame(primary, orders);
        assertTrue(primary.config().contains("lease_dir=" + PRIMARY_DIR), primary.config());
        assertTrue(orders.config().contains("lease_dir=" + ORDERS_DIR), orders.config());
        assertEquals(7, sessions.decode(sessions.nextId()).worker());
        assertTrue(Set.of(LeaseState.HELD, LeaseState.RIDING).contains(primary.stats().leaseState()), primary.stats().toString());
        assertEquals(LeaseState.NONE, sessions.stats().leaseState());
        assertTrue(orders.nextId() > 0);
    }

    @Test
    @Order(3)
    void configurationMetadataDescribesTheProperties() throws Exception {
        String json = null;
        for (URL u : Collections.list(getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
            if (u.toString().contains("idgen-spring-boot-starter")) {
                try (InputStream in = u.openStream()) {
                    json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        assertNotNull(json, "the starter's jar has META-INF/spring-configuration-metadata.json");
        Map<String, Object> meta = JsonParserFactory.getJsonParser().parseMap(json);
        Map<String, Map<String, Object>> props = new java.util.HashMap<>();
        for (Object p : (List<?>) meta.get("properties")) {
            Map<String, Object> m = Support.map(p, "property");
            props.put((String) m.get("name"), m);
        }
        assertEquals("java.lang.String", props.get("idgen.config").get("type"));
        assertTrue(((String) props.get("idgen.config").get("description")).contains("primary generator"), props.toString());
        assertTrue(((String) props.get("idgen.generators").get("type")).startsWith("java.util.Map<java.lang.String,"), props.toString());
        assertTrue(((String) props.get("idgen.generators").get("description")).contains("@Qualifier"), props.toString());
    }

    @Test
    @Order(4)
    void myBatisPlusTakesItsIdsFromThePrimaryGenerator(@Autowired ItemMapper items, @Autowired JdbcTemplate jdbc,
            @Autowired SqlSessionFactory sessionFactory) throws Exception {
        IdentifierGenerator bean = context.getBean(IdentifierGenerator.class);
        assertSame(primary, assertInstanceOf(IdgenIdentifierGenerator.class, bean).generator());
        assertSame(bean, GlobalConfigUtils.getGlobalConfig(sessionFactory.getConfiguration()).getIdentifierGenerator(),
                "MyBatis-Plus uses the starter's IdentifierGenerator");
        String uuid = bean.nextUUID(new Item());
        assertTrue(uuid.matches("[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}"), "a UUIDv7 without dashes: " + uuid);
        MyBatisPlusInsert.run(items, jdbc, primary, "preset=snowflake");
    }

    @Test
    @Order(5)
    void prometheusScrapeHasEveryFamilyOfEachGenerator() {
        orders.nextIds(3);
        Support.Http r = Support.get(port, "/actuator/prometheus");
        assertEquals(200, r.status(), r.body());
        for (String name : List.of("primary", "orders", "sessions")) {
            Set<String> families = families(IdGen.metricsText(), name);
            assertTrue(families.contains("idgen_ids_issued_total") && families.contains("idgen_lease_state"), families.toString());
            assertEquals(families, families(r.body(), name), "the library's families of " + name + " in the scrape");
        }
        assertTrue(Pattern.compile("(?m)^idgen_lease_state\\{[^}]*name=\"orders\"[^}]*\\} [12]\\.0$").matcher(r.body()).find(),
                "orders' lease is HELD (1) or RIDING (2):\n" + r.body());
    }

    /** The families that have a series labelled name="name" in an exposition text. */
    private static Set<String> families(String text, String name) {
        Set<String> out = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^(idgen_[a-z_]+)\\{([^}]*)\\}").matcher(text);
        while (m.find()) {
            if (m.group(2).contains("name=\"" + name + "\"")) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    @Test
    @Order(6)
    void healthIsDownWhileALeaseIsLostAndUpWhenItIsBack() throws Exception {
        Map<String, Object> idgen = idgenHealth(200, "UP");
        Map<String, Object> d = Support.map(idgen.get("details"), "details");
        Map<String, Object> o = Support.map(d.get("orders"), "orders");
        Stats before = orders.stats();
        assertLeased(o);
        assertEquals(before.datacenter() + "/" + before.worker(), o.get("pair"));
        assertFalse(Instant.parse((String) o.get("fence")).isBefore(Instant.now().minusSeconds(5)), o.toString());
        assertEquals("NONE", Support.map(d.get("sessions"), "sessions").get("lease"));
        assertFalse(Support.map(d.get("sessions"), "sessions").containsKey("fence"), "no fence without a lease");
        long lastId = orders.nextId();

        // The lease store goes away: the host lease directory, record and all.
        // The generator notices at its next renewal, and never issues past the
        // fence it reported: DOWN by then (plus one renewal period and slack).
        String cfg = orders.config();
        long fence = orders.stats().fenceUnixMs();
        Support.removeTree(ORDERS_DIR);
        long downBy = fence + Support.durationMs(cfg, "lease_ttl") + 2_000;
        idgen = pollHealth(503, downBy);
        assertEquals("DOWN", idgen.get("status"), idgen.toString());
        d = Support.map(idgen.get("details"), "details");
        assertEquals("LOST", Support.map(d.get("orders"), "orders").get("lease"));
        assertEquals(Boolean.FALSE, Support.map(d.get("orders"), "orders").get("riding"));
        assertLeased(Support.map(d.get("idGenerator"), "idGenerator")); // the others are unaffected
        IdGenException lost = assertThrows(IdGenException.class, orders::nextId);
        assertEquals(ErrorCode.WORKER, lost.code(), lost.getMessage());
        assertTrue(primary.nextId() > 0);

        // Back: the library leases again by itself, waiting at most max_wait
        // for its clock to pass the old record.
        Files.createDirectory(ORDERS_DIR, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        long upBy = System.currentTimeMillis() + Support.durationMs(cfg, "max_wait") + Support.durationMs(cfg, "lease_ttl") + 2_000;
        idgen = pollHealth(200, upBy);
        assertEquals("UP", idgen.get("status"), idgen.toString());
        assertLeased(Support.map(Support.map(idgen.get("details"), "details").get("orders"), "orders"));
        Stats after = orders.stats();
        assertEquals(before.leasesTaken() + 1, after.leasesTaken(), "leased again: " + after);
        assertTrue(orders.nextId() > lastId, "ids go on increasing after the new lease");
    }

    /**
     * A generator's health details while it holds its lease: HELD, or RIDING
     * when a renewal did not get through in time (a loaded machine), and
     * riding flagged exactly then.
     */
    private static void assertLeased(Map<String, Object> details) {
        Object lease = details.get("lease");
        assertTrue("HELD".equals(lease) || "RIDING".equals(lease), details.toString());
        assertEquals("RIDING".equals(lease), details.get("riding"), details.toString());
    }

    private Map<String, Object> idgenHealth(int status, String want) {
        Support.Http r = Support.get(port, "/actuator/health");
        assertEquals(status, r.status(), r.body());
        Map<String, Object> idgen = Support.map(Support.map(r.json().get("components"), "components").get("idgen"), "idgen");
        assertEquals(want, idgen.get("status"), r.body());
        return idgen;
    }

    /** Polls /actuator/health until it answers status, or fails at deadline (ms since 1970). */
    private Map<String, Object> pollHealth(int status, long deadline) throws InterruptedException {
        while (true) {
            Support.Http r = Support.get(port, "/actuator/health");
            if (r.status() == status) {
                return Support.map(Support.map(r.json().get("components"), "components").get("idgen"), "idgen");
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("/actuator/health is not " + status + " by " + Instant.ofEpochMilli(deadline) + ": " + r.body());
            }
            Thread.sleep(20);
        }
    }
}
