"""The recurring audit: a Prefect deployment of sea_audit with its cron schedule and parameters."""

from flows.deploy import DEPLOYMENT_NAME, audit_deployment


def test_the_deployment_carries_the_schedule_and_parameters(tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text("audit:\n  schedule_cron: '15 4 * * *'\n", encoding="utf-8")
    deployment = audit_deployment(str(params))
    assert deployment.name == DEPLOYMENT_NAME and deployment.flow_name == "sea-audit"
    assert [s.schedule.cron for s in deployment.schedules] == ["15 4 * * *"]
    assert deployment.parameters == {"params_path": str(params), "schedule": "15 4 * * *"}
    assert [s.schedule.cron for s in audit_deployment(str(params), cron="0 */6 * * *").schedules] == ["0 */6 * * *"]
