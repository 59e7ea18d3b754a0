package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** IdGenerator.shared: one generator per configuration string in the JVM, never closed. */
class SharedTest {
    @Test
    void oneGeneratorPerStringAcrossThreads() throws Exception {
        String config = "preset=snowflake worker=11 name=jshared";
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<IdGenerator>> got = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                got.add(pool.submit(() -> IdGenerator.shared(config)));
            }
            IdGenerator first = got.get(0).get();
            for (Future<IdGenerator> f : got) {
                assertSame(first, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertNotSame(IdGenerator.shared(config), IdGenerator.shared(config + " "), "compared as given");
    }

    @Test
    void closeDoesNothingOnASharedOne() {
        IdGenerator g = IdGenerator.shared("preset=snowflake worker=12 name=jshared-close");
        long before = g.nextId();
        g.close();
        assertTrue(g.nextId() > before, "still open");
        try (IdGenerator own = IdGenerator.open("preset=snowflake worker=12 name=jshared-own")) {
            assertNotSame(g, own);
        }
    }

    @Test
    void aBadStringIsNotKept() {
        String bad = "preset=snowflake worker=lease lease_ttl=banana";
        IdGenException first = assertThrows(IdGenException.class, () -> IdGenerator.shared(bad));
        IdGenException again = assertThrows(IdGenException.class, () -> IdGenerator.shared(bad));
        assertEquals(ErrorCode.INVALID, first.code());
        assertEquals(first.getMessage(), again.getMessage());
    }
}
