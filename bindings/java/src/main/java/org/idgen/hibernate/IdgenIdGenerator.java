package org.idgen.hibernate;

import java.util.EnumSet;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.idgen.IdGenerator;

/**
 * The Hibernate generator behind {@link IdgenId}: Hibernate makes one per
 * annotated id; each takes its ids from the JVM's generator for the
 * annotation's config string ({@link IdGenerator#shared}), opened when
 * Hibernate builds it. hibernate-core is an optional dependency of the idgen
 * jar: only this package needs it.
 */
public final class IdgenIdGenerator implements BeforeExecutionGenerator {
    private static final long serialVersionUID = 1L;

    private final String config;
    private transient volatile IdGenerator ids;

    /** Called by Hibernate for an {@link IdgenId} id. */
    public IdgenIdGenerator(IdgenId annotation) {
        this.config = annotation.config();
        this.ids = IdGenerator.shared(config);
    }

    /** The next id of the generator for this id's config string. */
    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue, EventType eventType) {
        IdGenerator g = ids;
        if (g == null) { // deserialized
            g = IdGenerator.shared(config);
            ids = g;
        }
        return g.nextId();
    }

    /** Ids are made for inserts only. */
    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }
}
