package dev.waldoconf.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SchemaRegistryConfig;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.path.NodePath;
import dev.waldo.runtime.lang.Suggestions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Validates a {@link YamlDocument} against one of the JSON Schemas shipped in
 * {@code resources/schema} and turns the validator's findings into {@link ConfigProblem}s with
 * file, line, column and field path. Messages come from the schema's {@code errorMessage}
 * where it gives one, otherwise from this class, phrased for operators.
 *
 * <p>A value at a place the schema marks {@code "writeOnly": true} (where a secret's source goes)
 * is never quoted: whoever wrote a community or passphrase there inline put a secret where it
 * does not belong, and the message must not carry it on to a terminal or a CI log.
 */
public final class SchemaCheck {
    /** The inventory schema, {@code schema/inventory.schema.json}. */
    public static final String INVENTORY = "inventory.schema.json";
    /** The plan schema, {@code schema/plan.schema.json}. */
    public static final String PLAN = "plan.schema.json";

    private static final String ERROR_MESSAGE = "errorMessage";

    private final JsonNode schemaTree;
    private final Schema schema;

    private SchemaCheck(JsonNode schemaTree, Schema schema) {
        this.schemaTree = schemaTree;
        this.schema = schema;
    }

    /** The check for schema resource {@code name} ({@link #INVENTORY} or {@link #PLAN}). */
    public static SchemaCheck load(String name) {
        String resource = "/schema/" + name;
        try (InputStream in = SchemaCheck.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema " + resource + " is missing from the jar; rebuild waldoconf");
            }
            JsonNode tree = new ObjectMapper().readTree(in);
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    builder -> builder.schemaRegistryConfig(
                            SchemaRegistryConfig.builder().errorMessageKeyword(ERROR_MESSAGE).build()));
            return new SchemaCheck(tree, registry.getSchema(tree.toString(), InputFormat.JSON));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema " + resource, e);
        }
    }

    /** The schema itself, for tools that want to show or export it. */
    public JsonNode schemaTree() {
        return schemaTree;
    }

    /**
     * Every way {@code document} breaks the schema, in file order.
     */
    public List<ConfigProblem> check(YamlDocument document) {
        List<ConfigProblem> problems = new ArrayList<>();
        for (Error error : schema.validate(document.root())) {
            problems.add(translate(document, error));
        }
        problems.sort(Comparator.comparingInt((ConfigProblem p) -> p.location().line())
                .thenComparingInt(p -> p.location().column()));
        return problems.stream().distinct().toList();
    }

    /** Throws every problem {@link #check} finds, if any. */
    public void require(YamlDocument document) throws ConfigException {
        List<ConfigProblem> problems = check(document);
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    private ConfigProblem translate(YamlDocument document, Error error) {
        String path = toFieldPath(error.getInstanceLocation());
        String keyword = error.getKeyword() == null ? "" : error.getKeyword();
        return switch (keyword) {
            case "required" -> document.problem(path, "missing field '" + error.getProperty() + "'");
            case "additionalProperties" -> document.problem(FieldPaths.field(path, error.getProperty()),
                    "unknown field '" + error.getProperty() + "'" + knownFields(error));
            default -> document.problem(path, valueMessage(error, keyword));
        };
    }

    private String valueMessage(Error error, String keyword) {
        String value = isSecret(error) ? "this value" : quote(error.getInstanceNode());
        if (hasCustomMessage(error, keyword)) {
            return value + " " + error.getMessage();
        }
        Object[] args = error.getArguments() == null ? new Object[0] : error.getArguments();
        String first = args.length > 0 ? String.valueOf(args[0]) : "";
        return switch (keyword) {
            case "type" -> "expected " + (args.length > 1 ? args[1] : "another type") + ", found " + value;
            case "minimum" -> value + " is below the minimum " + first;
            case "maximum" -> value + " is above the maximum " + first;
            case "maxLength" -> value + " is longer than " + first + " characters";
            case "minLength" -> "must not be empty";
            case "minItems" -> "needs at least " + first + " entr" + ("1".equals(first) ? "y" : "ies");
            case "enum" -> value + " is not one of " + Arrays.toString(args);
            case "pattern" -> value + " does not have the expected form " + first;
            default -> error.getMessage();
        };
    }

    /** Whether the failing value stands where the schema expects a secret's source ({@code writeOnly}). */
    private boolean isSecret(Error error) {
        return schemaAround(error).path("writeOnly").asBoolean(false);
    }

    /** Whether the schema gives its own {@code errorMessage} for this keyword at this place. */
    private boolean hasCustomMessage(Error error, String keyword) {
        return schemaAround(error).path(ERROR_MESSAGE).has(keyword);
    }

    /** "; did you mean 'untagged'?" or the fields the object may have. */
    private String knownFields(Error error) {
        List<String> known = new ArrayList<>();
        schemaAround(error).path("properties").fieldNames().forEachRemaining(known::add);
        if (known.isEmpty()) {
            return "; check its spelling and indentation";
        }
        String hint = Suggestions.closest(error.getProperty(), known);
        return hint.startsWith("; did you mean") ? hint : "; this mapping may have: " + String.join(", ", known);
    }

    /** The schema object that holds the failing keyword (the keyword's parent in the schema). */
    private JsonNode schemaAround(Error error) {
        NodePath fragment = error.getSchemaLocation().getFragment();
        JsonNode node = schemaTree;
        for (int i = 0; i < fragment.getNameCount() - 1 && !node.isMissingNode(); i++) {
            Object element = fragment.getElement(i);
            node = element instanceof Integer index ? node.path(index) : node.path(String.valueOf(element));
        }
        return node;
    }

    private static String quote(JsonNode node) {
        if (node == null || node.isContainerNode()) {
            return node == null ? "the value" : "this " + (node.isObject() ? "mapping" : "list");
        }
        return node.isTextual() ? "'" + node.asText() + "'" : node.toString();
    }

    /** {@code /vlans/1/untagged} as {@code vlans[1].untagged}. */
    static String toFieldPath(NodePath location) {
        String path = "";
        for (int i = 0; i < location.getNameCount(); i++) {
            Object element = location.getElement(i);
            path = element instanceof Integer index ? FieldPaths.index(path, index)
                    : FieldPaths.field(path, String.valueOf(element));
        }
        return path;
    }
}
