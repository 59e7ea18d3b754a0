package org.idgen.spring.boot;

import org.idgen.IdGenerator;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code idgen} health indicator ({@link IdgenHealth}) with Spring Boot
 * Actuator: Boot 4.0's API or Boot 3.5's, whichever the application has;
 * off with {@code management.health.idgen.enabled=false}.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class)
@ConditionalOnBean(IdGenerator.class)
public class IdgenHealthAutoConfiguration {
    /** The bean name, from which Actuator names the indicator "idgen". */
    static final String BEAN = "idgenHealthIndicator";

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    @org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator("idgen")
    static class Boot4 {
        @Bean(BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        org.springframework.boot.health.contributor.HealthIndicator idgenHealthIndicator(ListableBeanFactory beans) {
            IdgenHealth health = new IdgenHealth(beans);
            return () -> {
                IdgenHealth.Reading r = health.read();
                return (r.up() ? org.springframework.boot.health.contributor.Health.up()
                        : org.springframework.boot.health.contributor.Health.down()).withDetails(r.details()).build();
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    @org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator("idgen")
    static class Boot3 {
        @Bean(BEAN)
        @ConditionalOnMissingBean(name = BEAN)
        org.springframework.boot.actuate.health.HealthIndicator idgenHealthIndicator(ListableBeanFactory beans) {
            IdgenHealth health = new IdgenHealth(beans);
            return () -> {
                IdgenHealth.Reading r = health.read();
                return (r.up() ? org.springframework.boot.actuate.health.Health.up()
                        : org.springframework.boot.actuate.health.Health.down()).withDetails(r.details()).build();
            };
        }
    }
}
