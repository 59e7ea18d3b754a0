package org.idgen.hibernate;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;

/**
 * An entity id (a {@code Long} or {@code long}) that Hibernate 6.5+ or 7
 * takes from idgen before each insert:
 *
 * <pre>{@code
 * @Entity
 * class Order {
 *     @Id @IdgenId(config = "preset=snowflake worker=lease")
 *     Long id;
 * }
 * }</pre>
 *
 * <p>Every id with the same {@link #config} string in one JVM comes from one
 * idgen generator ({@link org.idgen.IdGenerator#shared}), whatever entity or
 * session factory it is on; a bad string fails the session factory's build
 * with the library's message.
 */
@IdGeneratorType(IdgenIdGenerator.class)
@Retention(RUNTIME)
@Target({FIELD, METHOD})
public @interface IdgenId {
    /** The generator's configuration string; "" means the library's defaults. */
    String config() default "";
}
