// A Java process in a fleet test's pool: opens a generator from args[0],
// issues one id, prints its configuration string, and holds the lease until
// stdin closes. Run as a single-file program against the idgen jar.
import org.idgen.IdGenerator;

public class JavaHolder {
    public static void main(String[] args) throws Exception {
        try (IdGenerator g = IdGenerator.open(args[0])) {
            g.nextId();
            System.out.println(g.config());
            System.out.flush();
            while (System.in.read() >= 0) {
                // hold until the test closes our stdin
            }
        }
    }
}
