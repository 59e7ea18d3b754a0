package org.idgen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which of the jar's libraries a JVM loads: linux-x86-64/ on amd64,
 * linux-aarch64/ on aarch64 (both in the jar, each built for its machine),
 * and a clear UnsatisfiedLinkError anywhere else. The last two tests start
 * a JVM on the packaged jar with os.arch forced: with aarch64 the backend
 * of that JVM (JNA on JDK 17, java.lang.foreign on 22+) takes
 * linux-aarch64/libidgen.so, which this x86-64 machine cannot load; with
 * sparc it finds nothing to take.
 */
class NativePathTest {
    /** ELF e_machine of x86-64 and of AArch64. */
    static final int EM_X86_64 = 62;
    static final int EM_AARCH64 = 183;

    @Test
    void eachLinuxArchHasItsDirectory() {
        assertEquals("linux-x86-64", NativeResource.directory("Linux", "amd64"));
        assertEquals("linux-x86-64", NativeResource.directory("Linux", "x86_64"));
        assertEquals("linux-aarch64", NativeResource.directory("Linux", "aarch64"));
        assertEquals("linux-aarch64", NativeResource.directory("Linux", "arm64"));
    }

    @Test
    void theJarCarriesALibraryBuiltForEachMachine() throws IOException {
        assertEquals(EM_X86_64, machine("/linux-x86-64/libidgen.so"));
        assertEquals(EM_AARCH64, machine("/linux-aarch64/libidgen.so"));
    }

    @Test
    void otherPlatformsAreRefusedByName() {
        String[][] none = {{"Linux", "sparc"}, {"Linux", "riscv64"}, {"Mac OS X", "aarch64"}, {"Windows 11", "amd64"}};
        for (String[] p : none) {
            UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeResource.directory(p[0], p[1]));
            assertTrue(e.getMessage().contains("no native library for os.name=" + p[0] + " os.arch=" + p[1]), e.getMessage());
            assertTrue(e.getMessage().contains("-Didgen.library=PATH"), e.getMessage());
        }
    }

    @Test
    void aJvmOnAarch64TakesTheAarch64Library(@TempDir Path dir) throws Exception {
        Run r = probe(dir, "aarch64");
        assertEquals(3, r.status, r.out);
        assertTrue(r.out.contains("idgen: cannot load linux-aarch64/libidgen.so, the jar's library for os.name=Linux os.arch=aarch64"), r.out);
    }

    @Test
    void aJvmOnAnotherCpuFailsCleanly(@TempDir Path dir) throws Exception {
        Run r = probe(dir, "sparc");
        assertEquals(3, r.status, r.out);
        assertTrue(r.out.contains("java.lang.UnsatisfiedLinkError: idgen: this jar has no native library for os.name=Linux os.arch=sparc"), r.out);
    }

    /** e_machine of the ELF file at a resource of the jar. */
    private static int machine(String resource) throws IOException {
        URL url = NativeResource.class.getResource(resource);
        assertNotNull(url, resource + " is not in the jar");
        assertTrue(url.toString().startsWith("jar:"), url.toString());
        try (InputStream in = url.openStream()) {
            byte[] h = in.readNBytes(20);
            assertArrayEquals(new byte[] {0x7f, 'E', 'L', 'F', 2, 1}, java.util.Arrays.copyOf(h, 6), resource + ": not a 64-bit little-endian ELF file");
            return (h[18] & 0xff) | (h[19] & 0xff) << 8;
        }
    }

    private record Run(int status, String out) {}

    /**
     * A JVM like this one on the packaged jar and JNA, with os.arch forced:
     * its first call into the library, and the error it gets (exit 3) or
     * the version (exit 0).
     */
    private static Run probe(Path dir, String arch) throws IOException, InterruptedException, URISyntaxException {
        String jar = Path.of(NativeResource.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        assertTrue(jar.endsWith(".jar"), "the tests run against the packaged jar: " + jar);
        Path jna = Path.of(com.sun.jna.Native.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path src = dir.resolve("Probe.java");
        Files.writeString(src, String.join("\n",
                "public class Probe { public static void main(String[] a) {",
                "  try { System.out.println(\"loaded \" + org.idgen.IdGen.version()); }",
                "  catch (Throwable t) { System.out.println(t); System.exit(3); } } }"));
        List<String> flags = new ArrayList<>(List.of("-Dos.arch=" + arch));
        if (Runtime.version().feature() < 22) {
            // JNA loads its own libjnidispatch by os.arch too: give it this
            // machine's, so that the library that fails is idgen's.
            flags.add("-Djna.boot.library.path=" + jnidispatch(jna, dir));
        }
        SourceLauncher.Result r = SourceLauncher.run(flags, jar + ":" + jna, src);
        return new Run(r.status(), r.out());
    }

    /** A directory holding JNA's libjnidispatch.so for this (x86-64) machine. */
    private static Path jnidispatch(Path jna, Path dir) throws IOException {
        try (ZipFile z = new ZipFile(jna.toFile())) {
            try (InputStream in = z.getInputStream(z.getEntry("com/sun/jna/linux-x86-64/libjnidispatch.so"))) {
                Files.copy(in, dir.resolve("libjnidispatch.so"));
            }
        }
        return dir;
    }
}
