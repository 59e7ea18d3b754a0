package org.idgen.spring.boot;

import org.idgen.IdGenerator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * idgen's generators as beans, from the {@code idgen.*} properties ({@link
 * IdgenProperties}): {@code idGenerator}, the primary one, from {@code
 * idgen.config} (or the library's defaults when no generator is
 * configured and the application defines none); one bean named {@code
 * <name>} per {@code idgen.generators.<name>.config}. The health
 * indicator, the metrics and MyBatis-Plus's id source are auto-configured
 * beside it ({@link IdgenHealthAutoConfiguration}, {@link
 * IdgenMetricsAutoConfiguration}, {@link IdgenMybatisPlusAutoConfiguration}).
 */
@AutoConfiguration
@ConditionalOnClass(IdGenerator.class)
@EnableConfigurationProperties(IdgenProperties.class)
@Import(IdgenGenerators.class)
public class IdgenAutoConfiguration {}
