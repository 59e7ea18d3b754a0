package org.idgen.spring.boot;

import org.idgen.ErrorCode;
import org.idgen.IdGenException;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * A start that failed on an idgen error, told as Spring Boot tells failures:
 * the library's message, the bean and the property it came from, and what
 * to do.
 */
class IdgenFailureAnalyzer extends AbstractFailureAnalyzer<IdGenException> {
    private final Environment environment;

    IdgenFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, IdGenException cause) {
        BeanCreationException bean = null; // the innermost: the bean that failed, not one that needed it
        for (Throwable t = rootFailure; t != null && t != cause; t = t.getCause()) {
            if (t instanceof BeanCreationException b) {
                bean = b;
            }
        }
        String where = "";
        if (bean != null && bean.getBeanName() != null) {
            String property = property(bean.getBeanName());
            where = " (bean '" + bean.getBeanName() + "'" + (property == null ? "" : ", " + property) + ")";
        }
        return new FailureAnalysis("idgen failed" + where + ": " + cause.getMessage(), action(cause.code()), cause);
    }

    /** The idgen.* property a starter bean of that name was opened from, if it was one. */
    private String property(String beanName) {
        String p = IdgenGenerators.property(beanName);
        return environment != null && environment.containsProperty(p) ? p : null;
    }

    private static String action(ErrorCode code) {
        return switch (code) {
            case INVALID -> "Correct the configuration string: the message names the key (the README's "
                    + "Configuration table lists every key and value).";
            case WORKER -> "Make the lease source the configuration names reachable, or give the pool room "
                    + "(the message says which store and why).";
            case CLOCK -> "Check this host's clock against the one the message names.";
            default -> "See the message above.";
        };
    }
}
