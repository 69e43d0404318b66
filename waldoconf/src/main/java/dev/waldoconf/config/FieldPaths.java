package dev.waldoconf.config;

/**
 * Field paths as messages print them: {@code vlans[1].ports[0].untagged}. The empty path is
 * the whole document.
 */
final class FieldPaths {
    private FieldPaths() {
    }

    /** The path of field {@code name} inside the object at {@code parent}. */
    static String field(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    /** The path of element {@code index} of the list at {@code parent}. */
    static String index(String parent, int index) {
        return parent + "[" + index + "]";
    }

    /** The enclosing path: {@code vlans[1]} for {@code vlans[1].name}, {@code vlans} for {@code vlans[1]}. */
    static String parent(String path) {
        int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
        return cut < 0 ? "" : path.substring(0, cut);
    }
}
