package org.idgen.spring.boot;

import java.util.Map;
import org.idgen.IdGenerator;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers the generator beans the {@code idgen.*} properties name: {@code
 * idGenerator} (primary) for {@code idgen.config}, one bean per {@code
 * idgen.generators.<name>.config}. Each is opened when the context creates
 * it (a bad string fails the start with the library's message) and closed
 * with the context (its lease released).
 */
class IdgenGenerators implements ImportBeanDefinitionRegistrar, EnvironmentAware {
    /** The primary generator's bean name. */
    static final String PRIMARY = "idGenerator";

    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        IdgenProperties props = Binder.get(environment).bind(IdgenProperties.PREFIX, IdgenProperties.class)
                .orElseGet(IdgenProperties::new);
        if (props.getConfig() != null) {
            register(registry, PRIMARY, props.getConfig(), property(PRIMARY), true);
        } else if (props.getGenerators().isEmpty() && !hasGenerator(registry)) {
            register(registry, PRIMARY, "", "the library's defaults (no idgen.config)", true);
        }
        for (Map.Entry<String, IdgenProperties.Generator> e : props.getGenerators().entrySet()) {
            register(registry, e.getKey(), e.getValue().getConfig(), property(e.getKey()), false);
        }
    }

    /** The property a generator bean of this name is opened from. */
    static String property(String beanName) {
        return PRIMARY.equals(beanName) ? IdgenProperties.PREFIX + ".config"
                : IdgenProperties.PREFIX + ".generators." + beanName + ".config";
    }

    /** Whether the application defines an IdGenerator bean of its own. */
    private static boolean hasGenerator(BeanDefinitionRegistry registry) {
        return registry instanceof ListableBeanFactory beans
                && beans.getBeanNamesForType(IdGenerator.class, true, false).length > 0;
    }

    private static void register(BeanDefinitionRegistry registry, String name, String config, String property,
            boolean primary) {
        String cfg = config == null ? "" : config;
        RootBeanDefinition bd = new RootBeanDefinition(IdGenerator.class, () -> IdGenerator.open(cfg));
        bd.setPrimary(primary);
        bd.setDestroyMethodName("close");
        bd.setDescription("idgen generator \"" + cfg + "\" (" + property + ")");
        registry.registerBeanDefinition(name, bd);
    }
}
