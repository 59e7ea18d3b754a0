package org.idgen;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.function.Function;

/**
 * The jar's copy of libidgen.so for the JVM's platform, for both backends
 * (JNA and java.lang.foreign) alike: {@code linux-x86-64/libidgen.so} or
 * {@code linux-aarch64/libidgen.so} (JNA's names for the two), chosen by the
 * system properties os.name and os.arch, copied to a temporary file, loaded
 * and deleted (a loaded Go library is never unloaded). Used when neither
 * idgen.library nor $IDGEN_LIBRARY names a file ({@link
 * Native#configuredPath}).
 *
 * <p>Every failure is an UnsatisfiedLinkError that names the platform and
 * what to do: a platform the jar has no library for (macOS, Windows, any
 * other CPU), a jar without the file, a library that does not load (a
 * glibc older than 2.34, musl).
 */
final class NativeResource {
    private NativeResource() {}

    /** The platforms the jar carries a library for. */
    static final String[] DIRECTORIES = {"linux-x86-64", "linux-aarch64"};

    /**
     * The jar's directory for a platform, as the JVM names it: "linux-x86-64"
     * for Linux on amd64 (x86_64), "linux-aarch64" for Linux on aarch64
     * (arm64).
     *
     * @throws UnsatisfiedLinkError for any other platform
     */
    static String directory(String osName, String osArch) {
        if (osName != null && osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            switch (osArch == null ? "" : osArch.toLowerCase(Locale.ROOT)) {
                case "amd64":
                case "x86_64":
                    return DIRECTORIES[0];
                case "aarch64":
                case "arm64":
                    return DIRECTORIES[1];
                default:
                    break;
            }
        }
        throw new UnsatisfiedLinkError("idgen: this jar has no native library for " + platform(osName, osArch)
                + " (it carries " + String.join(" and ", DIRECTORIES) + ", for glibc 2.34 or newer);"
                + " build libidgen.so for this platform and name it with -Didgen.library=PATH or IDGEN_LIBRARY");
    }

    /** The resource this JVM loads: {@link #directory} of os.name and os.arch, then /libidgen.so. */
    static String resource() {
        return directory(System.getProperty("os.name"), System.getProperty("os.arch")) + "/libidgen.so";
    }

    /**
     * Copies {@link #resource} to a temporary file, hands its path to load
     * (which opens the library), deletes the file and returns what load
     * returned. An UnsatisfiedLinkError or IllegalArgumentException from load
     * (JNA's and java.lang.foreign's ways of saying dlopen failed) comes out
     * as an UnsatisfiedLinkError naming the resource and the platform.
     */
    static <T> T load(Function<Path, T> load) {
        String resource = resource();
        Path tmp = extract(resource);
        try {
            return load.apply(tmp);
        } catch (UnsatisfiedLinkError | IllegalArgumentException e) {
            UnsatisfiedLinkError err = new UnsatisfiedLinkError("idgen: cannot load " + resource
                    + ", the jar's library for " + platform(System.getProperty("os.name"), System.getProperty("os.arch"))
                    + ", which needs that machine and glibc 2.34 or newer: " + e.getMessage());
            err.initCause(e);
            throw err;
        } finally {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException e) {
                tmp.toFile().deleteOnExit();
            }
        }
    }

    private static Path extract(String resource) {
        try (InputStream in = NativeResource.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("idgen: " + resource + " is not in the jar; set -Didgen.library=PATH");
            }
            Path tmp = Files.createTempFile("idgen", ".so");
            Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            return tmp;
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("idgen: cannot extract " + resource + ": " + e);
        }
    }

    private static String platform(String osName, String osArch) {
        return "os.name=" + osName + " os.arch=" + osArch;
    }
}
