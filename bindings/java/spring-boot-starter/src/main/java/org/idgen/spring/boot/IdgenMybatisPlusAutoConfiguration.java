package org.idgen.spring.boot;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import org.idgen.IdGenerator;
import org.idgen.mybatisplus.IdgenIdentifierGenerator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * With MyBatis-Plus on the class path: its id source ({@code IdType.ASSIGN_ID},
 * {@code ASSIGN_UUID}) is an {@link IdgenIdentifierGenerator} on the primary
 * generator (MyBatis-Plus's starter takes the {@code IdentifierGenerator}
 * bean), unless the application defines an {@code IdentifierGenerator}.
 */
@AutoConfiguration(after = IdgenAutoConfiguration.class,
        beforeName = "com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration")
@ConditionalOnClass(IdentifierGenerator.class)
@ConditionalOnSingleCandidate(IdGenerator.class)
public class IdgenMybatisPlusAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean(IdentifierGenerator.class)
    IdgenIdentifierGenerator idgenIdentifierGenerator(IdGenerator ids) {
        return new IdgenIdentifierGenerator(ids);
    }
}
