package org.idgen;

/**
 * Picks the implementation of {@link Native} on JDK 22+ (this class is
 * META-INF/versions/22 of the multi-release jar): java.lang.foreign, unless
 * the system property idgen.backend=jna asks for JNA (for comparisons; JNA
 * works on every JDK).
 */
final class Backends {
    private Backends() {}

    static Native create() {
        return "jna".equals(System.getProperty("idgen.backend")) ? new JnaNative() : new FfmNative();
    }
}
