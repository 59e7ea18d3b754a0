# ---- Java frameworks: the Spring Boot starter and the framework adapters ----
# Included by the top-level Makefile (BUILD, MVN, JDK25 and java-lib come
# from there).
#   make test-java-frameworks  one Maven reactor (tests/java/pom.xml): the idgen
#                              jar (its own suite is test-java's) and
#                              bindings/java/spring-boot-starter, then the suite
#                              tests/java/suite against real frameworks twice:
#                              Spring Boot 3.5 + Hibernate 6.6 on JDK 17 (boot35),
#                              Spring Boot 4.0 + Hibernate 7.2 on JDK 25 (boot40);
#                              MyBatis-Plus and Hibernate on H2 and on a
#                              PostgreSQL started here (tests/servers/pg.sh)
# MVN="mvn -o ..." runs it offline once Maven's cache has everything. Maven's
# own output is quiet (-q: failures only; sed drops the colour resets Debian's
# Maven prints even then); the last line counts the tests of both modules.

JAVA_FW_TESTS   := tests/java
JAVA_FW_PG      := $(BUILD)/java-frameworks/pg
JAVA_FW_REPORTS := $(JAVA_FW_TESTS)/boot35/target/surefire-reports $(JAVA_FW_TESTS)/boot40/target/surefire-reports

.PHONY: test-java-frameworks clean-java-frameworks java-install

# The idgen jar and the starter into the local Maven repository (~/.m2), as
# README's Java section has a reader do before the first build of an
# application: neither is on Maven Central.
java-install: java-lib
	cd bindings/java && $(MVN) -q -DskipTests install
	cd bindings/java/spring-boot-starter && $(MVN) -q -DskipTests install

test-java-frameworks: java-lib
	@test -x $(JDK25)/bin/java || echo "test-java-frameworks: no JDK 25 at $(JDK25): the Spring Boot 4.0 suite runs on this JDK (JNA)"
	@tests/servers/pg.sh stop $(JAVA_FW_PG) >/dev/null 2>&1 || true
	@rm -rf $(JAVA_FW_PG) $(JAVA_FW_REPORTS) && mkdir -p $(dir $(JAVA_FW_PG))
	@tests/servers/pg.sh start $(JAVA_FW_PG)
	@set -o pipefail; trap '$(CURDIR)/tests/servers/pg.sh stop $(JAVA_FW_PG)' EXIT; \
	  cd $(JAVA_FW_TESTS) && IDGEN_PG_URL=$$(cat $(JAVA_FW_PG)/url) $(MVN) -q -DskipITs verify 2>&1 | sed 's/\x1b\[0m//g'
	@cat $(addsuffix /TEST-*.xml,$(JAVA_FW_REPORTS)) | grep -o '<testsuite [^>]*>' | awk ' \
	  BEGIN { split("tests errors failures skipped", keys, " ") } \
	  { for (i in keys) if (match($$0, " " keys[i] "=\"[0-9]+\"")) { \
	      v = substr($$0, RSTART, RLENGTH); gsub(/[^0-9]/, "", v); n[keys[i]] += v } } \
	  END { f = n["errors"] + n["failures"]; \
	        printf "test-java-frameworks: %d passed, %d failed, %d skipped\n", n["tests"] - f - n["skipped"], f, n["skipped"]; \
	        exit (f > 0 || n["skipped"] > 0 || n["tests"] == 0) }'

clean-java-frameworks:
	rm -rf bindings/java/spring-boot-starter/target $(JAVA_FW_TESTS)/boot35/target $(JAVA_FW_TESTS)/boot40/target $(BUILD)/java-frameworks

clean: clean-java-frameworks
