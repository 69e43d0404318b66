package dev.waldo.runtime;

/**
 * A Waldo {@code Endpoint} value: a reference to an endpoint or service that
 * may live on another host. The only reference type in Waldo; copying it
 * copies the reference, not the endpoint.
 *
 * @param host the id of the host the object lives on
 * @param object the object's id, unique within its host
 */
public record EndpointRef(String host, long object) {
    @Override
    public String toString() {
        return host + "/" + object;
    }
}
