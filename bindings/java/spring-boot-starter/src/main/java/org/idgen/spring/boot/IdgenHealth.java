package org.idgen.spring.boot;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.idgen.IdGenException;
import org.idgen.IdGenerator;
import org.idgen.LeaseState;
import org.idgen.Stats;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * What the {@code idgen} health indicator reports, whichever Spring Boot
 * asks: UP while every generator bean's lease is NONE, HELD or RIDING, DOWN
 * when any is LOST (or a generator cannot answer: closed); per generator,
 * by bean name: {@code lease} (the state), {@code pair} ("datacenter/worker"
 * held, or the fixed one), {@code fence} (the highest time it may issue,
 * RFC 3339, with a lease only) and {@code riding} (the store does not
 * answer and it issues up to its fence).
 */
final class IdgenHealth {
    private final ListableBeanFactory beans;

    IdgenHealth(ListableBeanFactory beans) {
        this.beans = beans;
    }

    /** One reading: whether all are up, and the details by bean name. */
    record Reading(boolean up, Map<String, Object> details) {}

    Reading read() {
        boolean up = true;
        Map<String, Object> details = new LinkedHashMap<>();
        for (Map.Entry<String, IdGenerator> e : beans.getBeansOfType(IdGenerator.class).entrySet()) {
            Map<String, Object> d = new LinkedHashMap<>();
            try {
                Stats st = e.getValue().stats();
                up &= st.leaseState() != LeaseState.LOST;
                d.put("lease", st.leaseState().name());
                d.put("pair", pair(st));
                Instant fence = st.fence();
                if (fence != null) {
                    d.put("fence", fence.toString());
                }
                d.put("riding", st.leaseState() == LeaseState.RIDING);
            } catch (IdGenException ex) {
                up = false;
                d.put("error", ex.getMessage());
            }
            details.put(e.getKey(), d);
        }
        return new Reading(up, details);
    }

    /** "datacenter/worker", or the worker alone when the layout has no datacenter. */
    private static String pair(Stats st) {
        return st.datacenter() < 0 ? Long.toString(st.worker()) : st.datacenter() + "/" + st.worker();
    }
}
