package dev.waldo.decisions;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;

/**
 * One replica's copy of the register: per attempt, the first outcome proposed (a commit with its stamp, or a backout). Raft applies
 * the same proposals in the same order on every replica, so all keep the same first one. It
 * takes no snapshots: a replica that starts again applies its whole log again, which gives the
 * same map (its log is not truncated either; see the module README).
 */
final class DecisionStateMachine extends BaseStateMachine {
    /** Per attempt, the settled commit's stamp, or 0 if it was backed out. */
    private final Map<String, Long> settled = new ConcurrentHashMap<>();

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext transaction) {
        LogEntryProto entry = transaction.getLogEntry();
        Proposal proposal = Proposal.decode(entry.getStateMachineLogEntry().getLogData());
        long outcome = settled.computeIfAbsent(proposal.attempt(), attempt -> proposal.commitStamp());
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(Proposal.answer(outcome));
    }

    /** How many attempts this replica has settled. */
    int settledCount() {
        return settled.size();
    }
}
