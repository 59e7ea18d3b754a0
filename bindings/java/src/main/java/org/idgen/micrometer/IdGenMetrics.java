package org.idgen.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.idgen.IdGen;

/**
 * idgen's metrics in a Micrometer registry: every open generator of the
 * process, read from {@link IdGen#metricsText()} (the library's own
 * families, so a Prometheus registry scrapes the same names as the C
 * library writes: {@code idgen_ids_issued_total}, {@code idgen_lease_state},
 * ...; tags {@code name} and {@code generator}, and {@code
 * idgen_generator_info}'s).
 *
 * <pre>{@code
 * IdGenMetrics metrics = new IdGenMetrics();
 * metrics.bindTo(registry);   // e.g. a PrometheusMeterRegistry
 * ...
 * metrics.close();            // stops looking for new generators
 * }</pre>
 *
 * <p>Values are read when the registry reads them (at most one library call
 * per {@code maxAge}, 1 s by default). Generators opened or closed later are
 * added and removed every {@code refreshInterval} (10 s by default, on a
 * daemon thread, as Micrometer's KafkaMetrics does), or at once by {@link
 * #refresh()}. micrometer-core is an optional dependency of the idgen jar:
 * only this class needs it.
 */
public final class IdGenMetrics implements MeterBinder, AutoCloseable {
    private final Duration refreshInterval;
    private final long maxAgeNanos;
    private final Map<String, Meter> meters = new ConcurrentHashMap<>();
    private volatile Scrape last = new Scrape(Map.of(), Map.of(), Long.MIN_VALUE);
    private MeterRegistry registry;
    private ScheduledExecutorService scheduler;

    /** Refreshes every 10 s; values at most 1 s old. */
    public IdGenMetrics() {
        this(Duration.ofSeconds(10), Duration.ofSeconds(1));
    }

    /**
     * @param refreshInterval how often generators opened or closed since are
     *     added or removed (zero: only by {@link #refresh()})
     * @param maxAge how old a value read by the registry may be
     */
    public IdGenMetrics(Duration refreshInterval, Duration maxAge) {
        this.refreshInterval = refreshInterval;
        this.maxAgeNanos = maxAge.toNanos();
    }

    @Override
    public synchronized void bindTo(MeterRegistry registry) {
        this.registry = registry;
        refresh();
        if (!refreshInterval.isZero() && scheduler == null) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "idgen-metrics");
                t.setDaemon(true);
                return t;
            });
            long ms = refreshInterval.toMillis();
            scheduler.scheduleAtFixedRate(this::refreshQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    /** Adds the series of generators opened since, removes those of closed ones. */
    public synchronized void refresh() {
        if (registry == null) {
            return;
        }
        Scrape s = scrape();
        for (Map.Entry<String, Series> e : s.series.entrySet()) {
            meters.computeIfAbsent(e.getKey(), k -> register(k, e.getValue(), s.types));
        }
        for (String k : new ArrayList<>(meters.keySet())) {
            if (!s.series.containsKey(k)) {
                registry.remove(meters.remove(k));
            }
        }
    }

    private void refreshQuietly() {
        try {
            refresh();
        } catch (RuntimeException e) {
            // the next refresh tries again; a registry read reports NaN meanwhile
        }
    }

    /** Stops the refreshing thread and removes every idgen meter. */
    @Override
    public synchronized void close() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
        if (registry != null) {
            meters.values().forEach(registry::remove);
        }
        meters.clear();
    }

    private Meter register(String key, Series s, Map<String, String> types) {
        String family = s.family;
        List<Tag> tags = new ArrayList<>();
        s.labels.forEach((k, v) -> tags.add(Tag.of(k, v)));
        String help = "idgen: see docs/ABI.md, Metrics";
        if ("counter".equals(types.get(family))) {
            String name = family.substring(0, family.length() - "_total".length()).replace('_', '.');
            return FunctionCounter.builder(name, this, m -> m.value(key)).tags(tags).description(help).register(registry);
        }
        return Gauge.builder(family.replace('_', '.'), this, m -> m.value(key)).strongReference(true).tags(tags).description(help).register(registry);
    }

    private double value(String key) {
        Scrape s = last;
        if (System.nanoTime() - s.at > maxAgeNanos) {
            s = scrape();
        }
        Series v = s.series.get(key);
        return v == null ? Double.NaN : v.value;
    }

    private Scrape scrape() {
        Scrape s = parse(IdGen.metricsText(), System.nanoTime());
        last = s;
        return s;
    }

    private record Series(String family, Map<String, String> labels, double value) {}

    private record Scrape(Map<String, Series> series, Map<String, String> types, long at) {}

    /** Reads the library's exposition text (its own, so a small reader does). */
    static Scrape parse(String text, long at) {
        Map<String, Series> series = new HashMap<>();
        Map<String, String> types = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] f = line.split(" ");
                types.put(f[2], f[3]);
                continue;
            }
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int end = line.lastIndexOf('}');
            String family = line.substring(0, brace);
            Map<String, String> labels = new java.util.LinkedHashMap<>();
            readLabels(line.substring(brace + 1, end), labels);
            double v = Double.parseDouble(line.substring(end + 1).trim());
            series.put(line.substring(0, end + 1), new Series(family, labels, v));
        }
        return new Scrape(series, types, at);
    }

    private static void readLabels(String s, Map<String, String> out) {
        int i = 0;
        while (i < s.length()) {
            int eq = s.indexOf('=', i);
            String k = s.substring(i, eq);
            StringBuilder v = new StringBuilder();
            int j = eq + 2; // past ="
            for (; s.charAt(j) != '"'; j++) {
                char c = s.charAt(j);
                if (c == '\\') {
                    c = s.charAt(++j);
                    v.append(c == 'n' ? '\n' : c);
                } else {
                    v.append(c);
                }
            }
            out.put(k, v.toString());
            i = j + 2; // past ",
        }
    }
}
