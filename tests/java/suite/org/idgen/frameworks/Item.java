package org.idgen.frameworks;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

/** A MyBatis-Plus entity whose id MyBatis-Plus assigns (ASSIGN_ID): from idgen, through the starter. */
@TableName("idgen_item")
public class Item {
    @TableId(type = IdType.ASSIGN_ID)
    private Long id;

    private String name;

    public Item() {}

    public Item(String name) {
        this.name = name;
    }

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
