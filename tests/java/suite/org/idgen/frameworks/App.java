package org.idgen.frameworks;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application under test: nothing of its own but a MyBatis-Plus mapper; idgen comes from the starter. */
@SpringBootApplication
public class App {}
