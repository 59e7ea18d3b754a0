package org.idgen.frameworks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.idgen.IdGenerator;
import org.idgen.Stats;
import org.springframework.jdbc.core.JdbcTemplate;

/** MyBatis-Plus inserts from 8 threads into a real database, ids checked there. */
final class MyBatisPlusInsert {
    private MyBatisPlusInsert() {}

    static final int PER_THREAD = 250;

    /**
     * Creates idgen_item, inserts 8 x PER_THREAD Items through the mapper
     * (their ids assigned by MyBatis-Plus: ASSIGN_ID), and checks the table
     * holds exactly those ids, each of ids' pair in layout's time.
     */
    static void run(ItemMapper items, JdbcTemplate jdbc, IdGenerator ids, String layout) throws Exception {
        jdbc.execute("DROP TABLE IF EXISTS idgen_item");
        jdbc.execute("CREATE TABLE idgen_item (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)");
        long from = System.currentTimeMillis();
        Set<Long> inserted = Support.onEightThreads(t -> {
            List<Long> got = new ArrayList<>();
            for (int i = 0; i < PER_THREAD; i++) {
                Item item = new Item("t" + t + "-" + i);
                assertEquals(1, items.insert(item));
                assertNotNull(item.getId(), "MyBatis-Plus assigned the id");
                got.add(item.getId());
            }
            return got;
        });
        long to = System.currentTimeMillis();
        assertEquals(8 * PER_THREAD, inserted.size());
        Set<Long> stored = new HashSet<>(jdbc.queryForList("SELECT id FROM idgen_item", Long.class));
        assertEquals(inserted, stored, "the table holds exactly the ids MyBatis-Plus assigned");
        Stats st = ids.stats();
        Support.decodeAll(stored, layout, st.datacenter(), st.worker(), from, to);
    }
}
