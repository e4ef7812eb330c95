"""The scenario contract: class kinds, shares and the admission block."""

import pytest

from headroom.engine.sim import ScenarioError, load_scenario

SERVICE = {"dist": "constant", "value": 0.01}


def _doc(**extra):
    classes = [
        {"name": "top", "share": 0.25, "service_s": SERVICE, "user": "top", "kind": "dynamic"},
        {"name": "rest", "share": 0.75, "service_s": SERVICE, "kind": "static"},
    ]
    return {
        "duration_s": 10,
        "workload": {"arrivals": {"rate_per_s": 40}, "classes": classes},
        **extra,
    }


def test_shares_thin_the_workload_arrivals():
    classes = load_scenario(_doc()).workload.class_list()
    assert [(c.name, c.arrivals.rate_per_s, c.user, c.kind) for c in classes] == [
        ("top", 10.0, "top", "dynamic"),
        ("rest", 30.0, "normal", "static"),
    ]


def test_shares_scale_every_profile_step():
    doc = _doc()
    doc["workload"]["arrivals"] = {"profile": [[0, 4], [5, 8]]}
    top = load_scenario(doc).workload.class_list()[0]
    assert top.arrivals.profile == [(0, 1.0), (5, 2.0)]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["workload"]["classes"][0].update(share=0.5), "add up to 1"),
        (lambda d: d["workload"]["classes"][0].pop("share"), "needs a share"),
        (lambda d: d["workload"].update(arrivals={"times_s": [1, 2]}), "not recorded times"),
        (lambda d: d["workload"].pop("arrivals"), "every class needs arrivals"),
        (
            lambda d: d.update(admission={"policy": "static_part", "maxconn_sla": 9, "maxconn": 4}),
            "admission.static_part: Value error, maxconn_sla must be <= maxconn",
        ),
        (
            lambda d: d.update(admission={"policy": "virtual_queue", "hardness": {"nope": 2}}),
            "no class named 'nope'",
        ),
        (lambda d: d.update(admission={"policy": "bouncer"}), "admission"),
    ],
)
def test_bad_documents_name_the_field(change, message):
    doc = _doc()
    change(doc)
    with pytest.raises(ScenarioError, match=message):
        load_scenario(doc)


def test_admission_defaults():
    assert load_scenario(_doc()).admission.policy == "none"
    queue = load_scenario(_doc(admission={"policy": "virtual_queue"})).admission
    assert (queue.capacity, queue.max_wait_s, queue.epoch_s, queue.c0, queue.n_f) == (
        "discover",
        3600,
        8.0,
        15.0,
        7,
    )
    part = load_scenario(
        _doc(admission={"policy": "dynamic_part", "maxconn_sla": 18, "maxconn": 26})
    )
    assert part.admission.period_s == 10.0
