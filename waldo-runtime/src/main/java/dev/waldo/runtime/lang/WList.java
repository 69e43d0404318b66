package dev.waldo.runtime.lang;

import java.util.ArrayList;
import java.util.Collection;

/** A Waldo {@code List}: an ordered list with value semantics (see {@link Values#copy}). */
public final class WList<T> extends ArrayList<T> {
    /** An empty list. */
    public WList() {
    }

    /** A list holding {@code elements} as they are (callers copy them first when needed). */
    public WList(Collection<? extends T> elements) {
        super(elements);
    }

    /** Builds a list literal. */
    @SafeVarargs
    public static <T> WList<T> of(T... elements) {
        WList<T> list = new WList<>();
        java.util.Collections.addAll(list, elements);
        return list;
    }
}
