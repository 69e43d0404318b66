package dev.waldoconf.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class YamlDocumentTest {
    private static final String TEXT = """
            vlans:
              - id: 10
                ports:
                  - {group: access, untagged: '1-8'}
                  - group: all
                    tagged: 24
            """;

    @Test
    void indexesEveryValueOfBlockAndFlowStyle() throws Exception {
        YamlDocument document = YamlDocument.parse("plan.yaml", TEXT);
        assertThat(document.locate("vlans[0].id")).hasToString("plan.yaml:2:9");
        assertThat(document.locate("vlans[0].ports[0].untagged")).hasToString("plan.yaml:4:35");
        assertThat(document.locate("vlans[0].ports[0]")).hasToString("plan.yaml:4:9");
        assertThat(document.locate("vlans[0].ports[1].tagged")).hasToString("plan.yaml:6:17");
        assertThat(document.root().at("/vlans/0/ports/1/tagged").asInt()).isEqualTo(24);
    }

    @Test
    void missingFieldsAreLocatedAtTheirNearestParent() throws Exception {
        YamlDocument document = YamlDocument.parse("plan.yaml", TEXT);
        assertThat(document.locate("vlans[0].name")).isEqualTo(document.locate("vlans[0]"));
        assertThat(document.locate("vlans[7].ports")).isEqualTo(document.locate("vlans"));
        assertThat(document.problem("vlans[0].name", "missing").toString())
                .isEqualTo("plan.yaml:2:5: vlans[0].name: missing");
    }

    @Test
    void repeatedKeysAreProblems() {
        assertThatThrownBy(() -> YamlDocument.parse("inv.yaml", "switches: []\nswitches: []\n"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("inv.yaml:2:1: switches: 'switches' is given twice here; keep one");
    }
}
