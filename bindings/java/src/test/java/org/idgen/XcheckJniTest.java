package org.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The JDK 17 run has -Xcheck:jni, whose reports the pom sends to a log file
 * (system property idgen.vmlog) instead of failsafe's channel. This test
 * reads that log after exercising every JNA call and fails on any report
 * but the known ones that are not idgen's:
 *
 * <ul>
 *   <li>two warnings raised inside JNA's own libjnidispatch JNI_OnLoad
 *       while JNA loads it (the stack ends in
 *       com.sun.jna.Native.loadNativeDispatchLibrary, before any idgen
 *       call): "JNI local refs: 33, exceeds capacity: 32" (JNI_OnLoad's
 *       locals are freed when it returns; HotSpot has no such limit, and
 *       JDK 20 removed this "planned capacity" check, JDK-8297106) and "JNI
 *       call made without checking exceptions when required to from
 *       CallStaticObjectMethod". Both are JNA 5.17's C code. idgen's JNA
 *       calls pass only primitives, arrays and Pointers and create no local refs.</li>
 *   <li>"Handler was modified" for the signals Go installs its handlers for
 *       when the library loads (it forwards the ones that are not its own;
 *       IdGeneratorTest checks the JVM's implicit null checks still work).</li>
 * </ul>
 *
 * The java.lang.foreign run makes no JNI calls and has no log.
 */
class XcheckJniTest {
    static final Pattern SIGNAL = Pattern.compile("^Warning: SIG[A-Z0-9]+ handler modified!");

    @Test
    void xcheckJniFindsNothingOfIdgens() throws IOException {
        String log = System.getProperty("idgen.vmlog");
        if (!Native.LIB.name().equals("jna") || log == null) {
            assertEquals("ffm", Native.LIB.name(), "the JNA run must have -Xcheck:jni and its log");
            return;
        }
        // Every JNA entry point once, errors included.
        try (IdGenerator g = IdGenerator.open("preset=snowflake worker=2")) {
            long id = g.nextId();
            g.nextIds(new long[1000]);
            g.compose(g.decode(id));
            g.config();
            g.decodeText(g.nextText());
            try {
                g.decodeText("\u00e9"); // the path that passes its own native buffer
            } catch (IdGenException expected) {
                // INVALID
            }
        }
        IdGen.format(12345, 62, true);
        IdGen.parse("zz", 36);
        try {
            IdGen.parse("!", 10);
        } catch (IdGenException expected) {
            // the last-error path
        }
        System.out.flush();
        List<String> unknown = new ArrayList<>();
        String[] lines = Files.readString(Path.of(log)).split("\n");
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i];
            if (SIGNAL.matcher(l).find()) {
                continue; // Go's handlers, see above
            }
            if (l.toLowerCase(java.util.Locale.ROOT).contains("warning") || l.contains("FATAL ERROR")) {
                String stack = String.join("\n", List.of(lines).subList(i, Math.min(lines.length, i + 16)));
                if (!stack.contains("com.sun.jna.Native.loadNativeDispatchLibrary")) {
                    unknown.add(stack);
                }
            }
        }
        assertTrue(unknown.isEmpty(), "-Xcheck:jni reports in " + log + ":\n" + String.join("\n", unknown));
    }
}
