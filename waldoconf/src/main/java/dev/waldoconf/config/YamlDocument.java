package dev.waldoconf.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML file read into a Jackson tree, together with an index from every field path
 * ({@code vlans[1].untagged}) to the line and column where its value starts. Schema errors and
 * semantic errors both name paths; the index turns them into {@code file:line:col}.
 */
public final class YamlDocument {
    private static final YAMLFactory YAML = YAMLFactory.builder().build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final String file;
    private final JsonNode root;
    private final Map<String, SourceLocation> locations;

    private YamlDocument(String file, JsonNode root, Map<String, SourceLocation> locations) {
        this.file = file;
        this.root = root;
        this.locations = Map.copyOf(locations);
    }

    /**
     * Reads {@code path}.
     *
     * @throws ConfigException when the file cannot be read, is not YAML, is empty or repeats a key
     */
    public static YamlDocument read(Path path) throws ConfigException {
        String name = path.toString();
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(new ConfigProblem(SourceLocation.startOf(name), "",
                    "no such file; check the path (relative paths start at " + Path.of("").toAbsolutePath() + ")"));
        } catch (IOException e) {
            throw new ConfigException(new ConfigProblem(SourceLocation.startOf(name), "",
                    "cannot read the file: " + e.getMessage()));
        }
        return parse(name, text);
    }

    /** Parses {@code text} as if read from a file named {@code file}. */
    public static YamlDocument parse(String file, String text) throws ConfigException {
        return new Reading(file).read(new StringReader(text));
    }

    /** The file name as given, for messages. */
    public String file() {
        return file;
    }

    /** The document's root node (an object for every WaldoConf file that passed the schema). */
    public JsonNode root() {
        return root;
    }

    /**
     * Where the value at {@code path} starts; for a path that is not in the document (a
     * missing field) the nearest enclosing value that is.
     */
    public SourceLocation locate(String path) {
        String current = path;
        while (!locations.containsKey(current) && !current.isEmpty()) {
            current = FieldPaths.parent(current);
        }
        return locations.getOrDefault(current, SourceLocation.startOf(file));
    }

    /** A problem at {@code path} of this document. */
    public ConfigProblem problem(String path, String message) {
        return new ConfigProblem(locate(path), path, message);
    }

    /** Reads one document, building the tree and the location index together. */
    private static final class Reading {
        private final String file;
        private final Map<String, SourceLocation> locations = new HashMap<>();
        private final List<ConfigProblem> problems = new ArrayList<>();

        Reading(String file) {
            this.file = file;
        }

        YamlDocument read(Reader reader) throws ConfigException {
            try (JsonParser parser = YAML.createParser(reader)) {
                if (parser.nextToken() == null) {
                    throw new ConfigException(new ConfigProblem(SourceLocation.startOf(file), "",
                            "the file is empty; see configs/ for an example"));
                }
                JsonNode root = value(parser, "");
                if (parser.nextToken() != null) {
                    problems.add(new ConfigProblem(at(parser.currentTokenLocation()), "",
                            "this is a second YAML document (after a --- line); keep one document per file"));
                }
                if (!problems.isEmpty()) {
                    throw new ConfigException(problems);
                }
                return new YamlDocument(file, root, locations);
            } catch (JsonProcessingException e) {
                throw new ConfigException(new ConfigProblem(at(e.getLocation()), "",
                        "not valid YAML: " + withoutSourceEcho(e.getOriginalMessage())));
            } catch (IOException e) {
                throw new ConfigException(new ConfigProblem(SourceLocation.startOf(file), "",
                        "cannot read the file: " + e.getMessage()));
            }
        }

        /** SnakeYAML's message without the lines that echo the source and a caret (we give line:col). */
        private static String withoutSourceEcho(String message) {
            return message.lines().filter(line -> !line.isBlank() && !line.startsWith(" "))
                    .collect(java.util.stream.Collectors.joining("; "));
        }

        private JsonNode value(JsonParser parser, String path) throws IOException {
            locations.put(path, at(parser.currentTokenLocation()));
            return switch (parser.currentToken()) {
                case START_OBJECT -> object(parser, path);
                case START_ARRAY -> array(parser, path);
                case VALUE_STRING -> NODES.textNode(parser.getText());
                case VALUE_NUMBER_INT -> NODES.numberNode(parser.getBigIntegerValue());
                case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDecimalValue());
                case VALUE_TRUE -> NODES.booleanNode(true);
                case VALUE_FALSE -> NODES.booleanNode(false);
                default -> NODES.nullNode();
            };
        }

        private ObjectNode object(JsonParser parser, String path) throws IOException {
            ObjectNode node = NODES.objectNode();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                String child = FieldPaths.field(path, name);
                SourceLocation keyAt = at(parser.currentTokenLocation());
                parser.nextToken();
                if (node.has(name)) {
                    problems.add(new ConfigProblem(keyAt, child, "'" + name + "' is given twice here; keep one"));
                }
                node.set(name, value(parser, child));
            }
            return node;
        }

        private ArrayNode array(JsonParser parser, String path) throws IOException {
            ArrayNode node = NODES.arrayNode();
            int index = 0;
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                node.add(value(parser, FieldPaths.index(path, index++)));
            }
            return node;
        }

        private SourceLocation at(JsonLocation location) {
            if (location == null || location.getLineNr() < 1) {
                return SourceLocation.startOf(file);
            }
            return new SourceLocation(file, location.getLineNr(), Math.max(1, location.getColumnNr()));
        }
    }
}
