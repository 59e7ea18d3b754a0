package org.idgen;

/**
 * Picks the backend. This is the JDK 17-21 version: JNA. The multi-release
 * jar's META-INF/versions/22/org/idgen/Backends.class replaces it on JDK 22+
 * with one that picks java.lang.foreign.
 */
final class Backends {
    private Backends() {}

    static Backend create() {
        return new JnaBackend();
    }
}
