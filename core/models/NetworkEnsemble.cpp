// SPDX-License-Identifier: GPL-3.0-or-later
#include "models/NetworkEnsemble.h"

#include "data/SeededRandom.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>

namespace gpumem::models {

std::uint64_t ensembleMemberSeed(std::uint64_t seed, int member)
{
    if (member == 0)
        return seed;
    // A stream of its own ("ensemble" in ASCII mixed in): the seeds of an
    // experiment's repetitions are SplitMix64 mixes of the seed, which these never repeat.
    data::SeededRandom draws(seed ^ 0x656e73656d626c65ULL);
    std::uint64_t drawn = 0;
    for (int i = 0; i < member; ++i)
        drawn = draws.next();
    return drawn;
}

int concurrentMembers(int members, int threads, bool onCpu)
{
    return onCpu ? std::clamp(threads, 1, std::max(members, 1)) : 1;
}

MemberAgreement memberAgreement(const Eigen::MatrixXd &outputs)
{
    MemberAgreement agreement;
    const auto members = static_cast<double>(outputs.cols());
    agreement.mean = outputs.rowwise().sum() / members;
    agreement.spread = Eigen::VectorXd::Zero(outputs.rows());
    if (outputs.cols() > 1)
        agreement.spread =
            ((outputs.colwise() - agreement.mean).array().square().rowwise().sum() / (members - 1.0)).sqrt().matrix();
    return agreement;
}

EnsembleProgress::MemberObserver::MemberObserver(EnsembleProgress *ensemble, int member)
    : mEnsemble(ensemble)
    , mMember(member)
{
}

void EnsembleProgress::MemberObserver::batchFinished(const training::BatchProgress &progress)
{
    mEnsemble->batchFinished(mMember, progress);
}

void EnsembleProgress::MemberObserver::epochFinished(const training::EpochProgress &progress)
{
    mEnsemble->epochFinished(mMember, progress);
}

EnsembleProgress::EnsembleProgress(training::TrainingObserver *next, int members, std::vector<int> firstEpochs)
    : mNext(next)
    , mMembers(static_cast<std::size_t>(members))
    , mNextEpoch(1)
    , mBestMeanLoss(std::numeric_limits<double>::infinity())
{
    mObservers.reserve(static_cast<std::size_t>(members));
    for (int member = 0; member < members; ++member)
        mObservers.emplace_back(this, member);
    for (std::size_t member = 0; member < firstEpochs.size() && member < mMembers.size(); ++member)
        mMembers[member].firstEpoch = firstEpochs[member];
    if (!mMembers.empty())
        mNextEpoch = std::min_element(mMembers.begin(), mMembers.end(), [](const auto &a, const auto &b) {
                         return a.firstEpoch < b.firstEpoch;
                     })->firstEpoch;
}

training::TrainingObserver *EnsembleProgress::member(int member)
{
    return &mObservers[static_cast<std::size_t>(member)];
}

double EnsembleProgress::elapsedSeconds() const
{
    return mTime.seconds();
}

double EnsembleProgress::remainingSeconds(double done) const
{
    return done > 0.0 ? elapsedSeconds() * (1.0 - done) / done : 0.0;
}

double EnsembleProgress::share() const
{
    // Members that have not reported yet will take as many batches as those that have.
    std::int64_t done = 0;
    std::int64_t inAll = 0;
    for (const MemberState &member : mMembers) {
        done += member.batchesDone;
        inAll = std::max(inAll, member.batchesInAll);
    }
    inAll *= static_cast<std::int64_t>(mMembers.size());
    return inAll > 0 ? std::clamp(static_cast<double>(done) / static_cast<double>(inAll), 0.0, 1.0) : 0.0;
}

void EnsembleProgress::batchFinished(int member, const training::BatchProgress &progress)
{
    const std::lock_guard lock(mMutex);
    MemberState &state = mMembers[static_cast<std::size_t>(member)];
    state.batchesDone = static_cast<std::int64_t>(progress.epoch - 1) * progress.batches + progress.batch;
    state.batchesInAll = static_cast<std::int64_t>(progress.epochs) * progress.batches;
    state.latestBatchLoss = progress.trainLoss;
    state.latestLearningRate = progress.learningRate;
    state.samplesPerSecond = progress.samplesPerSecond;
    state.reportedBatch = true;
    if (!mNext)
        return;
    // One training of members × batches per epoch, whose batches done are the members' together.
    training::BatchProgress combined = progress;
    std::int64_t done = 0;
    double loss = 0.0;
    double learningRate = 0.0;
    double rate = 0.0;
    int reporting = 0;
    for (const MemberState &other : mMembers) {
        done += other.batchesDone;
        if (other.reportedBatch) {
            loss += other.latestBatchLoss;
            learningRate += other.latestLearningRate;
            ++reporting;
        }
        if (other.reportedBatch && !other.finished)
            rate += other.samplesPerSecond;
    }
    combined.batches = progress.batches * static_cast<std::int64_t>(mMembers.size());
    const double done01 = share();
    if (combined.batches > 0 && done > 0) {
        combined.epoch = static_cast<int>((done - 1) / combined.batches) + 1;
        combined.batch = done - static_cast<std::int64_t>(combined.epoch - 1) * combined.batches;
    }
    combined.trainLoss = loss / std::max(reporting, 1);
    // Members taking turns are at different points of one schedule: their mean runs
    // smoothly from one epoch's end to the next, where the reporting member's rate
    // would repeat each epoch's stretch once per member.
    combined.learningRate = learningRate / std::max(reporting, 1);
    combined.samplesPerSecond = rate;
    combined.elapsedSeconds = elapsedSeconds();
    combined.remainingSeconds = remainingSeconds(done01);
    mNext->batchFinished(combined);
}

void EnsembleProgress::epochFinished(int member, const training::EpochProgress &progress)
{
    const std::lock_guard lock(mMutex);
    mMembers[static_cast<std::size_t>(member)].epochs.push_back(progress);
    // Under the lock, like the means, so that each member's epochs arrive in order and
    // before the mean they enter.
    if (mNext && mMembers.size() > 1)
        mNext->memberEpochFinished(member, progress);
    reportCompleteEpochs();
}

void EnsembleProgress::memberFinished(int member)
{
    const std::lock_guard lock(mMutex);
    mMembers[static_cast<std::size_t>(member)].finished = true;
    reportCompleteEpochs();
}

std::vector<training::EpochProgress> EnsembleProgress::meanEpochs() const
{
    const std::lock_guard lock(mMutex);
    return mMeanEpochs;
}

void EnsembleProgress::reportCompleteEpochs()
{
    for (;; ++mNextEpoch) {
        // The epoch is complete when every member has reported it, starts after it, or
        // finished without it; its mean is over the members that ran it.
        std::vector<const training::EpochProgress *> ran;
        bool complete = true;
        for (const MemberState &member : mMembers) {
            const auto index = static_cast<std::size_t>(mNextEpoch - member.firstEpoch);
            if (mNextEpoch < member.firstEpoch)
                continue;
            if (index < member.epochs.size())
                ran.push_back(&member.epochs[index]);
            else if (!member.finished)
                complete = false;
        }
        if (!complete || ran.empty())
            return;
        training::EpochProgress mean = *ran.front();
        const auto average = [&ran](double training::EpochProgress::*field) {
            double sum = 0.0;
            for (const training::EpochProgress *epoch : ran)
                sum += epoch->*field;
            return sum / static_cast<double>(ran.size());
        };
        mean.trainLoss = average(&training::EpochProgress::trainLoss);
        mean.validationLoss = average(&training::EpochProgress::validationLoss);
        mean.validationRmse = average(&training::EpochProgress::validationRmse);
        mean.trainRmse = average(&training::EpochProgress::trainRmse);
        mean.samplesPerSecond = average(&training::EpochProgress::samplesPerSecond) * static_cast<double>(ran.size());
        const bool validated = ran.front()->validationLoss >= 0.0;
        const double judged = validated ? mean.validationLoss : mean.trainLoss;
        mean.best = std::isfinite(judged) && (!validated || judged < mBestMeanLoss);
        if (mean.best && validated)
            mBestMeanLoss = judged;
        mean.elapsedSeconds = elapsedSeconds();
        mean.remainingSeconds = remainingSeconds(share());
        mMeanEpochs.push_back(mean);
        if (mNext)
            mNext->epochFinished(mean);
    }
}

training::TrainingResult ensembleResult(const std::vector<training::TrainingResult> &members,
                                        std::vector<training::EpochProgress> meanEpochs)
{
    training::TrainingResult result;
    if (members.empty())
        return result;
    result.validationRows = members.front().validationRows;
    for (const training::StopReason reason :
         {training::StopReason::Cancelled, training::StopReason::NotFinite, training::StopReason::EarlyStopped}) {
        const auto stopped = std::find_if(members.begin(), members.end(), [reason](const training::TrainingResult &m) {
            return m.stopReason == reason;
        });
        if (stopped == members.end())
            continue;
        result.stopReason = reason;
        if (!stopped->message.empty())
            result.message = "network " + std::to_string(stopped - members.begin() + 1) + " of " +
                             std::to_string(members.size()) + ": " + stopped->message;
        break;
    }
    std::set<std::string> seen;
    for (const training::TrainingResult &member : members)
        for (const std::string &warning : member.warnings)
            if (seen.insert(warning).second)
                result.warnings.push_back(warning);
    for (const training::EpochProgress &epoch : meanEpochs)
        if (epoch.best)
            result.bestEpoch = epoch.epoch;
    result.epochs = std::move(meanEpochs);
    return result;
}

} // namespace gpumem::models
