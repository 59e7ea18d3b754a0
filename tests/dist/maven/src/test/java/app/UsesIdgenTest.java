package app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.idgen.IdGen;
import org.idgen.IdGenerator;
import org.idgen.IdParts;
import org.junit.jupiter.api.Test;

/** The installed jar, as a user's code sees it: no idgen.library, no IDGEN_LIBRARY. */
class UsesIdgenTest {
    @Test
    void generatesAndDecodesFromTheInstalledJar() {
        assertNull(System.getProperty("idgen.library"));
        assertTrue(System.getenv().getOrDefault("IDGEN_LIBRARY", "").isEmpty());
        String jar = IdGen.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        assertTrue(jar.endsWith("/org/idgen/idgen/0.1.0/idgen-0.1.0.jar"), jar);
        assertEquals("0.1.0", IdGen.version());
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=7")) {
            long a = g.nextId();
            long b = g.nextId();
            assertTrue(b > a);
            IdParts p = g.decode(b);
            assertEquals(7L, p.worker());
        }
    }
}
