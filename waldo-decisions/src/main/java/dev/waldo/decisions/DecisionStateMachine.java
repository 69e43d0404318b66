package dev.waldo.decisions;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;

/**
 * One replica's copy of the register: per attempt, the first outcome proposed. Raft applies
 * the same proposals in the same order on every replica, so all keep the same first one. It
 * takes no snapshots: a replica that starts again applies its whole log again, which gives the
 * same map (its log is not truncated either; see the module README).
 */
final class DecisionStateMachine extends BaseStateMachine {
    private final Map<String, Boolean> settled = new ConcurrentHashMap<>();

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        Proposal proposal = Proposal.decode(entry.getStateMachineLogEntry().getLogData());
        boolean outcome = settled.computeIfAbsent(proposal.attempt(), attempt -> proposal.commit());
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Proposal.answer(outcome));
    }

    /** How many attempts this replica has settled. */
    int settledCount() {
        return settled.size();
    }
}
