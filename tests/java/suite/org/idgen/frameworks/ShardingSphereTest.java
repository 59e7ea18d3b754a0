package org.idgen.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.spi.type.typed.TypedSPILoader;
import org.idgen.shardingsphere.IdgenKeyGenerateAlgorithm;
import org.junit.jupiter.api.Test;

/** ShardingSphere's own SPI loader finds the IDGEN key generator; its keys decode with the configured layout. */
class ShardingSphereTest {
    static final String CONFIG = "preset=snowflake worker=5 datacenter=2 name=sharding";

    private static Properties props(String config) {
        Properties p = new Properties();
        p.setProperty("config", config);
        return p;
    }

    @Test
    void loadedByTypeIdgenMakesKeysOfItsConfig() {
        KeyGenerateAlgorithm alg = TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IDGEN", props(CONFIG));
        assertInstanceOf(IdgenKeyGenerateAlgorithm.class, alg);
        assertEquals("IDGEN", alg.getType());
        assertFalse(alg.isSupportAutoIncrement());
        AlgorithmSQLContext ctx = new AlgorithmSQLContext("shop", "public", "t_order", "order_id");
        long from = System.currentTimeMillis();
        List<Long> keys = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            Collection<? extends Comparable<?>> got = alg.generateKeys(ctx, 200);
            assertEquals(200, got.size());
            for (Comparable<?> k : got) {
                keys.add(assertInstanceOf(Long.class, k));
            }
        }
        long to = System.currentTimeMillis();
        for (int i = 1; i < keys.size(); i++) {
            assertEquals(true, keys.get(i) > keys.get(i - 1), "keys increase: " + keys.get(i - 1) + " then " + keys.get(i));
        }
        Support.decodeAll(new HashSet<>(keys), "preset=snowflake", 2, 5, from, to);

        // Another rule naming the same string gets another algorithm, the same generator.
        KeyGenerateAlgorithm again = TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IDGEN", props(CONFIG));
        assertNotSame(alg, again);
        assertSame(((IdgenKeyGenerateAlgorithm) alg).generator(), ((IdgenKeyGenerateAlgorithm) again).generator());
    }

    @Test
    void badConfigFailsWithTheLibrarysMessage() {
        String message = Support.badConfigMessage();
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> TypedSPILoader.getService(KeyGenerateAlgorithm.class, "IDGEN", props(Support.BAD_CONFIG)));
        assertEquals(message, Support.idgenCause(e).getMessage());
    }
}
