package org.idgen.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import org.idgen.IdGenerator;
import org.idgen.micrometer.IdGenMetrics;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Every generator's metrics in the application's Micrometer registries
 * when it has one ({@link IdGenMetrics}, a {@code MeterBinder}: Spring Boot
 * binds it to each registry): {@code idgen_ids_issued_total}, {@code
 * idgen_lease_state}, ... as the library writes them.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class, afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, IdGenerator.class})
public class IdgenMetricsAutoConfiguration {
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    IdGenMetrics idgenMetrics(ListableBeanFactory beans) {
        beans.getBeansOfType(IdGenerator.class); // opened first: bound at once, not at the next refresh
        return new IdGenMetrics();
    }
}
