package org.idgen.spring.boot;

import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code idgen.*} properties: the configuration strings of the
 * generators the starter opens, one {@code org.idgen.IdGenerator} bean each.
 * A configuration string is the library's own ({@code "preset=snowflake
 * worker=lease"}; the project README's Configuration table has every key).
 */
@ConfigurationProperties(prefix = IdgenProperties.PREFIX)
public class IdgenProperties {
    /** The properties' prefix. */
    public static final String PREFIX = "idgen";

    /**
     * Configuration string of the primary generator, bean "idGenerator"
     * (e.g. "preset=snowflake worker=lease"); empty means the library's
     * defaults. Unset, the primary generator is made with the defaults only
     * when no idgen.generators are set.
     */
    private String config;

    /** More generators, one bean each, named by the key (inject with @Qualifier("name")). */
    private Map<String, Generator> generators = new LinkedHashMap<>();

    public String getConfig() {
        return config;
    }

    public void setConfig(String config) {
        this.config = config;
    }

    public Map<String, Generator> getGenerators() {
        return generators;
    }

    public void setGenerators(Map<String, Generator> generators) {
        this.generators = generators;
    }

    /** One of {@code idgen.generators}. */
    public static class Generator {
        /** Configuration string of this generator (e.g. "preset=leaf worker=zk://zk1:2181/idgen"); empty means the library's defaults. */
        private String config;

        public String getConfig() {
            return config;
        }

        public void setConfig(String config) {
            this.config = config;
        }
    }
}
