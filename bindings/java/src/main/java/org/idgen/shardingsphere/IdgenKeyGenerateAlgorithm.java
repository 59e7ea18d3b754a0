package org.idgen.shardingsphere;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Properties;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.idgen.IdGenException;
import org.idgen.IdGenerator;

/**
 * ShardingSphere's key generator of type {@code IDGEN}: keys from the idgen
 * generator its property {@code config} names (absent or empty: the
 * library's defaults), one per configuration string in the JVM however
 * many rules name it ({@link IdGenerator#shared}).
 *
 * <pre>{@code
 * keyGenerators:
 *   idgen:
 *     type: IDGEN
 *     props:
 *       config: preset=snowflake worker=zk://zk1:2181,zk2:2181,zk3:2181/idgen
 * }</pre>
 *
 * <p>Found by ShardingSphere's own SPI loader (it is listed in the idgen
 * jar's {@code META-INF/services/}); the ShardingSphere modules are an
 * optional dependency of the idgen jar: only this class needs them.
 */
public final class IdgenKeyGenerateAlgorithm implements KeyGenerateAlgorithm {
    /** The SPI type. */
    public static final String TYPE = "IDGEN";

    /** The property that holds the configuration string. */
    public static final String CONFIG = "config";

    private IdGenerator ids;

    /**
     * Opens (or finds) the generator of property {@code config}.
     *
     * @throws IdGenException as {@link IdGenerator#open} does, with the
     *     library's message
     */
    @Override
    public void init(Properties props) {
        ids = IdGenerator.shared(props == null ? null : props.getProperty(CONFIG));
    }

    /** {@code keyGenerateCount} strictly increasing ids, in one native call. */
    @Override
    public Collection<Long> generateKeys(AlgorithmSQLContext context, int keyGenerateCount) {
        long[] keys = generator().nextIds(keyGenerateCount);
        List<Long> out = new ArrayList<>(keys.length);
        for (long k : keys) {
            out.add(k);
        }
        return out;
    }

    /** The generator keys come from. */
    public IdGenerator generator() {
        if (ids == null) {
            throw new IllegalStateException("IDGEN key generator: init(props) was not called");
        }
        return ids;
    }

    @Override
    public String getType() {
        return TYPE;
    }
}
