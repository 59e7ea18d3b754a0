package org.idgen;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a one-file Java program (source-launcher mode) on a JVM like this
 * one, as a user of the jar would: java.lang.foreign's native access on
 * JDK 22+, IDGEN_LIBRARY unset so that the jar's own library is loaded.
 */
final class SourceLauncher {
    private SourceLauncher() {}

    /** Exit status and output (stdout and stderr, trimmed). */
    record Result(int status, String out) {}

    static Result run(List<String> flags, String classPath, Path src) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(flags);
        if (Runtime.version().feature() >= 22) {
            cmd.add("--enable-native-access=ALL-UNNAMED"); // java.lang.foreign, as the README says
        }
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(src.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("IDGEN_LIBRARY");
        Process proc = pb.start();
        String out = new String(proc.getInputStream().readAllBytes()).trim();
        return new Result(proc.waitFor(), out);
    }
}
