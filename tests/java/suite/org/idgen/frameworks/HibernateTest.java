package org.idgen.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.Configuration;
import org.idgen.ErrorCode;
import org.idgen.IdGenerator;
import org.idgen.hibernate.IdgenId;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Hibernate persisting @IdgenId entities into H2 and PostgreSQL. */
class HibernateTest {
    static final String SHARED = "preset=snowflake worker=21 datacenter=3 name=hibernate";
    static final String OTHER = "preset=leaf worker=9 name=hibernate-leaf";

    @Entity(name = "IdgenOrder")
    @Table(name = "idgen_order")
    public static class Order {
        @Id
        @IdgenId(config = SHARED)
        Long id;

        String note;
    }

    @Entity(name = "IdgenInvoice")
    @Table(name = "idgen_invoice")
    public static class Invoice {
        @Id
        @IdgenId(config = SHARED)
        long id;

        String note;
    }

    @Entity(name = "IdgenPart")
    @Table(name = "idgen_part")
    public static class Part {
        @Id
        @IdgenId(config = OTHER)
        Long id;
    }

    @Entity(name = "IdgenBad")
    @Table(name = "idgen_bad")
    public static class Bad {
        @Id
        @IdgenId(config = Support.BAD_CONFIG)
        Long id;
    }

    private static SessionFactory sessionFactory(String db, Class<?>... entities) {
        Configuration cfg = new Configuration().setProperty("hibernate.hbm2ddl.auto", "create-drop");
        if (db.equals("h2")) {
            cfg.setProperty("hibernate.connection.url", "jdbc:h2:mem:hibernate;DB_CLOSE_DELAY=-1")
                    .setProperty("hibernate.connection.username", "sa").setProperty("hibernate.connection.password", "");
        } else {
            Support.Pg pg = Support.Pg.fromEnv();
            cfg.setProperty("hibernate.connection.url", pg.url()).setProperty("hibernate.connection.username", pg.user())
                    .setProperty("hibernate.connection.password", pg.password());
        }
        for (Class<?> c : entities) {
            cfg.addAnnotatedClass(c);
        }
        return cfg.buildSessionFactory();
    }

    /**
     * Orders and invoices (one config string) share one generator: its count
     * of ids grows by exactly their number, their ids interleave without a
     * repeat; parts (another string) come from another generator.
     */
    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void persistsEntitiesWithIdgenIds(String db) {
        int n = 60;
        try (SessionFactory sf = sessionFactory(db, Order.class, Invoice.class, Part.class)) {
            long issuedBefore = IdGenerator.shared(SHARED).stats().issued();
            long from = System.currentTimeMillis();
            sf.inTransaction(s -> {
                for (int i = 0; i < n; i++) {
                    Order o = new Order();
                    o.note = "order " + i;
                    s.persist(o);
                    Invoice inv = new Invoice();
                    inv.note = "invoice " + i;
                    s.persist(inv);
                    s.persist(new Part());
                }
            });
            long to = System.currentTimeMillis();
            assertEquals(2L * n, IdGenerator.shared(SHARED).stats().issued() - issuedBefore,
                    "orders and invoices took their ids from one generator");
            List<Long> orders = sf.fromTransaction(s -> s.createQuery("select o.id from IdgenOrder o order by o.note", Long.class).getResultList());
            List<Long> invoices = sf.fromTransaction(s -> s.createQuery("select i.id from IdgenInvoice i", Long.class).getResultList());
            List<Long> parts = sf.fromTransaction(s -> s.createQuery("select p.id from IdgenPart p", Long.class).getResultList());
            assertEquals(n, orders.size());
            assertEquals(n, invoices.size());
            assertEquals(n, parts.size());
            Set<Long> shared = new HashSet<>(orders);
            shared.addAll(invoices);
            assertEquals(2 * n, shared.size(), "no id repeated between orders and invoices");
            Support.decodeAll(shared, "preset=snowflake", 3, 21, from, to);
            Support.decodeAll(new HashSet<>(parts), "preset=leaf", -1, 9, from, to);
        }
    }

    /** A bad config string fails the session factory's build with the library's message. */
    @Test
    void badConfigFailsTheBuildWithTheLibrarysMessage() {
        String message = Support.badConfigMessage();
        RuntimeException e = assertThrows(RuntimeException.class, () -> sessionFactory("h2", Bad.class).close());
        assertEquals(message, Support.idgenCause(e).getMessage());
        assertEquals(ErrorCode.INVALID, Support.idgenCause(e).code());
        assertTrue(message.contains("lease_ttl"), message);
    }
}
