// A Java process on a segment counter (the fleet tests): opens a generator
// from args[0], draws values for args[1] seconds, closes it (giving back
// what it holds), then prints the values, one a line.
import org.idgen.IdGenerator;

import java.util.ArrayList;
import java.util.List;

public class SegmentHolder {
    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[1]) * 1e9);
        List<Long> got = new ArrayList<>();
        try (IdGenerator g = IdGenerator.open(args[0])) {
            while (System.nanoTime() < end) {
                got.add(g.nextId());
                Thread.sleep(0, 200_000);
            }
        }
        StringBuilder b = new StringBuilder();
        for (long v : got) {
            b.append(v).append('\n');
        }
        System.out.print(b);
        System.out.flush();
    }
}
