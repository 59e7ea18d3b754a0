package org.idgen;

/**
 * Picks the implementation of {@link Native}. This is the JDK 17-21
 * version: JNA. The multi-release jar's
 * META-INF/versions/22/org/idgen/Backends.class replaces it on JDK 22+ with
 * one that picks java.lang.foreign.
 */
final class Backends {
    private Backends() {}

    static Native create() {
        return new JnaNative();
    }
}
