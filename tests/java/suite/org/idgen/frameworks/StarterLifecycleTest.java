package org.idgen.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.idgen.ErrorCode;
import org.idgen.IdGenException;
import org.idgen.IdGenerator;
import org.idgen.Stats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/** Applications started and stopped here: on PostgreSQL, and with a bad configuration string. */
@ExtendWith(OutputCaptureExtension.class)
class StarterLifecycleTest {
    private static SpringApplicationBuilder app(String... properties) {
        return new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off").properties(properties);
    }

    /**
     * MyBatis-Plus on a real PostgreSQL, the id from the starter's primary
     * generator; at shutdown the context closes its generators, and their
     * leases are free again.
     */
    @Test
    void myBatisPlusOnPostgresqlAndGeneratorsClosedAtShutdown() throws Exception {
        Support.Pg pg = Support.Pg.fromEnv();
        Path dir = Support.leaseDir("pg");
        String config = "preset=snowflake worker=lease lease_dir=" + dir + " name=pg";
        IdGenerator ids;
        Stats held;
        try (ConfigurableApplicationContext ctx = app("idgen.config=" + config, "spring.datasource.url=" + pg.url(),
                "spring.datasource.username=" + pg.user(), "spring.datasource.password=" + pg.password()).run()) {
            ids = ctx.getBean(IdGenerator.class);
            held = ids.stats();
            MyBatisPlusInsert.run(ctx.getBean(ItemMapper.class), ctx.getBean(JdbcTemplate.class), ids, "preset=snowflake");
            assertEquals("PostgreSQL", ctx.getBean(JdbcTemplate.class).execute(
                    (java.sql.Connection c) -> c.getMetaData().getDatabaseProductName()));
        }
        IdGenException closed = assertThrows(IdGenException.class, ids::nextId);
        assertEquals(ErrorCode.CLOSED, closed.code(), closed.getMessage());
        // Released at close: a new holder in the same directory takes that very pair.
        try (IdGenerator next = IdGenerator.open(config)) {
            Stats st = next.stats();
            assertEquals(held.datacenter() + "/" + held.worker(), st.datacenter() + "/" + st.worker());
        }
    }

    /** A bad idgen.config fails the start with the library's own message, told by the failure analyzer. */
    @Test
    void badConfigFailsTheStartWithTheLibrarysMessage(CapturedOutput output) {
        String message = Support.badConfigMessage();
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> app("idgen.config=" + Support.BAD_CONFIG, "spring.datasource.url=jdbc:h2:mem:bad").run().close());
        IdGenException cause = Support.idgenCause(e);
        assertEquals(message, cause.getMessage());
        assertEquals(ErrorCode.INVALID, cause.code());
        assertTrue(output.getAll().contains("APPLICATION FAILED TO START"), output.getAll());
        assertTrue(output.getAll().contains("idgen failed (bean 'idGenerator', idgen.config): " + message), output.getAll());
    }

    /** The same for a named generator; its property is named. */
    @Test
    void badNamedConfigNamesItsProperty(CapturedOutput output) {
        String message = Support.badConfigMessage();
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> app("idgen.generators.orders.config=" + Support.BAD_CONFIG, "spring.datasource.url=jdbc:h2:mem:bad2").run().close());
        assertEquals(message, Support.idgenCause(e).getMessage());
        assertTrue(output.getAll().contains("idgen failed (bean 'orders', idgen.generators.orders.config): " + message), output.getAll());
    }

    /**
     * Without any idgen.* property the primary generator has the library's
     * defaults; management.health.idgen.enabled=false leaves the indicator out.
     */
    @Test
    void noPropertiesMeansTheDefaults() {
        try (ConfigurableApplicationContext ctx = app("spring.datasource.url=jdbc:h2:mem:defaults",
                "management.health.idgen.enabled=false").run()) {
            IdGenerator g = ctx.getBean(IdGenerator.class);
            assertSame(g, ctx.getBean("idGenerator"));
            assertTrue(g.config().startsWith("preset=snowflake "), g.config());
            assertFalse(ctx.containsBean("idgenHealthIndicator"));
            assertTrue(ctx.containsBean("idgenMetrics"), "bound to the context's MeterRegistry");
        }
    }
}
