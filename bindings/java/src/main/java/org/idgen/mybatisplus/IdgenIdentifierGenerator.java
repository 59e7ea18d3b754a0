package org.idgen.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import java.util.Objects;
import org.idgen.IdGenerator;

/**
 * MyBatis-Plus's id source ({@code IdType.ASSIGN_ID} and {@code
 * IdType.ASSIGN_UUID} entities) from idgen: {@link #nextId} is the next id
 * of the generator it was built with, {@link #nextUUID} a UUIDv7 as 32
 * lower-case hex digits without dashes (MyBatis-Plus's own form), from the
 * JVM's {@code preset=uuidv7} generator ({@link IdGenerator#shared}).
 *
 * <pre>{@code
 * GlobalConfig global = GlobalConfigUtils.defaults()
 *         .setIdentifierGenerator(new IdgenIdentifierGenerator(IdGenerator.open("preset=snowflake worker=lease")));
 * }</pre>
 *
 * <p>The Spring Boot starter registers one, built with the primary
 * generator, when MyBatis-Plus is on the class path. mybatis-plus-core is
 * an optional dependency of the idgen jar: only this class needs it.
 * Closing the generator stays its owner's business.
 */
public final class IdgenIdentifierGenerator implements IdentifierGenerator {
    /** The generator of {@link #nextUUID}. */
    static final String UUID_CONFIG = "preset=uuidv7";

    private final IdGenerator ids;

    /** Ids from {@code ids}, which stays open as long as this is used. */
    public IdgenIdentifierGenerator(IdGenerator ids) {
        this.ids = Objects.requireNonNull(ids, "ids");
    }

    /** The generator ids come from. */
    public IdGenerator generator() {
        return ids;
    }

    /** The next id; the entity is not looked at. */
    @Override
    public Long nextId(Object entity) {
        return ids.nextId();
    }

    /** A UUIDv7, 32 hex digits without dashes, strictly increasing in this JVM. */
    @Override
    public String nextUUID(Object entity) {
        return IdGenerator.shared(UUID_CONFIG).nextText().replace("-", "");
    }
}
