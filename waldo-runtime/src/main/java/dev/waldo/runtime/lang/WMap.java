package dev.waldo.runtime.lang;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A Waldo {@code Map}: keys are Number, Text or TrueFalse; iteration follows insertion order.
 *
 * <p>Keys are normalized on the way in, so host code can use plain Java numbers: a Waldo Number is
 * a {@code double}, and every method that takes a key turns any Java {@link Number} into the
 * {@code Double} of the same value, so {@code m.get(2)} on a {@code WMap<Double, V>} finds the key
 * {@code 2.0}. A number a {@code double} cannot hold exactly (a {@code long} above 2<sup>53</sup>,
 * {@code new BigDecimal("0.1")}) is refused with an {@link IllegalArgumentException} rather than
 * rounded to a neighbour's key, and so is a key of a type no Waldo map has (a {@code Character}, a
 * list, {@code null}).
 */
public final class WMap<K, V> extends LinkedHashMap<K, V> {
    /** An empty map. */
    public WMap() {
    }

    /** A map holding {@code entries} as they are (callers copy them first when needed); keys are normalized. */
    public WMap(Map<? extends K, ? extends V> entries) {
        putAll(entries);
    }

    /**
     * Builds a map literal from alternating keys and values; generated code
     * gives the type arguments, so the casts cannot fail.
     */
    // -0 == 0 in Waldo, so both are one key (Double.equals would keep two).
    private static Double oneZero(Double number) {
        return number == 0 ? 0.0 : number;
    }

    @SuppressWarnings("unchecked")
    public static <K, V> WMap<K, V> of(Object... keysAndValues) {
        WMap<K, V> map = new WMap<>();
        for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
            map.put((K) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return map;
    }

    /**
     * {@code key} as a Waldo map holds it: any {@link Number} as the {@code Double} of the same
     * value, a {@code String} or {@code Boolean} as it is.
     *
     * @throws IllegalArgumentException if {@code key} is of no Waldo key type, or a number that
     *     has no exact {@code double} value
     */
    public static Object key(Object key) {
        return switch (key) {
            case Double d -> oneZero(d);
            case String s -> s;
            case Boolean b -> b;
            case Number n -> oneZero(Values.number(n));
            case null -> throw new IllegalArgumentException(
                    "a Waldo map has no null key: its keys are Number, Text (String) or TrueFalse (Boolean)");
            default -> throw new IllegalArgumentException("a Waldo map key is a Number, Text (String) or TrueFalse"
                    + " (Boolean), not " + key.getClass().getName() + " (" + key + ")");
        };
    }

    @SuppressWarnings("unchecked")
    private static <K> K typedKey(K key) {
        return (K) key((Object) key);
    }

    @Override
    public V get(Object key) {
        return super.get(key(key));
    }

    @Override
    public V getOrDefault(Object key, V defaultValue) {
        return super.getOrDefault(key(key), defaultValue);
    }

    @Override
    public boolean containsKey(Object key) {
        return super.containsKey(key(key));
    }

    @Override
    public V put(K key, V value) {
        return super.put(typedKey(key), value);
    }

    @Override
    public V putIfAbsent(K key, V value) {
        return super.putIfAbsent(typedKey(key), value);
    }

    /** Puts each entry through {@link #put}, so its key is normalized (HashMap's own putAll would bypass it). */
    @Override
    public void putAll(Map<? extends K, ? extends V> entries) {
        entries.forEach(this::put);
    }

    @Override
    public V remove(Object key) {
        return super.remove(key(key));
    }

    @Override
    public boolean remove(Object key, Object value) {
        return super.remove(key(key), value);
    }

    @Override
    public V replace(K key, V value) {
        return super.replace(typedKey(key), value);
    }

    @Override
    public boolean replace(K key, V oldValue, V newValue) {
        return super.replace(typedKey(key), oldValue, newValue);
    }

    @Override
    public V computeIfAbsent(K key, Function<? super K, ? extends V> mapping) {
        return super.computeIfAbsent(typedKey(key), mapping);
    }

    @Override
    public V computeIfPresent(K key, BiFunction<? super K, ? super V, ? extends V> remapping) {
        return super.computeIfPresent(typedKey(key), remapping);
    }

    @Override
    public V compute(K key, BiFunction<? super K, ? super V, ? extends V> remapping) {
        return super.compute(typedKey(key), remapping);
    }

    @Override
    public V merge(K key, V value, BiFunction<? super V, ? super V, ? extends V> remapping) {
        return super.merge(typedKey(key), value, remapping);
    }
}
