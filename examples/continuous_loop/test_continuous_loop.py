"""The pause procedure, as a test: a console fix survives only if it lands in code."""


def raise_timeout(url):
    def fix(cloud):  # cloud: clients signed as this writer
        cloud.client("sqs").set_queue_attributes(
            QueueUrl=url, Attributes={"VisibilityTimeout": "300"}
        )

    return fix


def test_pause_fix_codify_resume(converge):
    stack = converge(".")
    loop = stack.loop()  # applies first
    url = stack.outputs()["queue_url"]

    with loop.paused():  # 1. pause reconciliation before touching anything
        loop.console(raise_timeout(url), name="oncall")  # 2. the emergency fix
        paused = loop.run(cycles=3)  # 3. the loop still plans: it sees the drift, applies nothing
        assert all(c.writes == 0 for c in paused.cycles)
        [drift] = paused.drift
        assert (drift.by, drift.found, drift.reverted_cycle) == ("oncall", 300, None)
        stack.reconfigure({"visibility_timeout": 300})  # 4. the fix lands in code

    resumed = loop.run(cycles=2)  # 5. resume: nothing to revert, the fix stays
    assert all(c.writes == 0 for c in resumed.cycles)
    assert resumed.cycles[-1].converged
    resumed.raise_for_defects()


def test_resume_without_codifying_reverts_the_fix(converge):
    stack = converge(".")
    loop = stack.loop()
    with loop.paused():
        loop.console(raise_timeout(stack.outputs()["queue_url"]), name="oncall")
        loop.run(cycles=2)
    report = loop.run(cycles=1)  # the first cycle after resume reverts it
    [drift] = report.drift
    assert (drift.detected_cycle, drift.reverted_cycle, drift.lifetime_cycles) == (1, 3, 3)
    assert report.cycles[0].write_operations == {"SetQueueAttributes": 1}
