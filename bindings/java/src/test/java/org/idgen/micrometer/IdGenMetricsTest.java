package org.idgen.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.idgen.IdGen;
import org.idgen.IdGenerator;
import org.junit.jupiter.api.Test;

/** IdGen.metricsText() and the Micrometer binder, scraped by a real PrometheusMeterRegistry. */
class IdGenMetricsTest {
    /** The value of the one series of family with name="…" in a scrape. */
    private static double value(String scrape, String family, String name) {
        Matcher m = Pattern.compile("(?m)^" + family + "\\{([^}]*)\\} (\\S+)$").matcher(scrape);
        Double found = null;
        while (m.find()) {
            if (m.group(1).contains("name=\"" + name + "\"")) {
                assertEquals(null, found, "one series of " + family + " for " + name + " in:\n" + scrape);
                found = Double.parseDouble(m.group(2));
            }
        }
        assertTrue(found != null, family + " for " + name + " missing in:\n" + scrape);
        return found;
    }

    @Test
    void metricsTextHasTheFamiliesOfAnOpenGenerator() {
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=4 datacenter=2 name=jtext")) {
            g.nextIds(25);
            String text = IdGen.metricsText();
            assertTrue(text.contains("# TYPE idgen_ids_issued_total counter\n"), text);
            assertEquals(25.0, value(text, "idgen_ids_issued_total", "jtext"));
            assertEquals(0.0, value(text, "idgen_lease_state", "jtext"));
            assertTrue(Pattern.compile("idgen_generator_info\\{name=\"jtext\",generator=\"\\d+\",preset=\"snowflake\",store=\"none\",datacenter=\"2\",worker=\"4\"\\} 1")
                    .matcher(text).find(), text);
        }
        assertFalse(IdGen.metricsText().contains("name=\"jtext\""), "a closed generator's series go away");
    }

    @Test
    void prometheusRegistryScrapesTheLibrarysFamilies() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (IdGenMetrics metrics = new IdGenMetrics(Duration.ZERO, Duration.ZERO);
                IdGenerator a = IdGenerator.open("preset=snowflake worker=5 name=jmicro")) {
            metrics.bindTo(registry);
            a.nextIds(10);
            String s = registry.scrape();
            assertTrue(s.contains("# TYPE idgen_ids_issued_total counter"), s);
            assertEquals(10.0, value(s, "idgen_ids_issued_total", "jmicro"));
            a.nextIds(5);
            assertEquals(15.0, value(registry.scrape(), "idgen_ids_issued_total", "jmicro"), "values move");
            assertEquals(0.0, value(s, "idgen_lease_state", "jmicro"));
            assertEquals(1.0, value(s, "idgen_generator_info", "jmicro"));
            try (IdGenerator b = IdGenerator.open("preset=ulid name=jlater")) {
                b.nextText();
                assertFalse(registry.scrape().contains("jlater"), "not yet refreshed");
                metrics.refresh();
                assertEquals(1.0, value(registry.scrape(), "idgen_ids_issued_total", "jlater"));
            }
            metrics.refresh();
            assertFalse(registry.scrape().contains("jlater"), "a closed generator's meters are removed");
        }
        assertFalse(registry.scrape().contains("idgen_"), "close() removes every idgen meter");
    }
}
