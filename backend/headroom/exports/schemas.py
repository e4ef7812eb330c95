from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from headroom.engine.export import ExportOptions

ExportKind = Literal["hpa", "keda", "aws", "haproxy", "nginx", "envoy", "pools", "slo"]


class ExportParams(BaseModel):
    """What the exported file names and which form it takes (query parameters)."""

    model_config = ConfigDict(extra="forbid")

    deployment: str = Field("web", max_length=63, description="Kubernetes Deployment (hpa, keda)")
    namespace: str = Field("default", max_length=63, description="its namespace")
    asg: str = Field("web-asg", max_length=63, description="EC2 Auto Scaling group (aws)")
    backend: str = Field("web", max_length=63, description="proxy backend name")
    service_class: str | None = Field(
        None, max_length=200, description="capacity analysis: the request class (default all)"
    )
    servers: int | None = Field(None, ge=1, le=1000, description="proxy server lines")
    max_replicas: int | None = Field(None, ge=1, le=10_000, description="keda from an analysis")
    direction: Literal["out", "in"] = Field("out", description="aws step scaling: which alarm")
    format: Literal["sloth", "openslo", "rules"] = Field("sloth", description="slo: the form")
    workers: int = Field(2, ge=1, le=256, description="pools: gunicorn worker processes")

    def to_engine(self) -> ExportOptions:
        """Raises ExportError for a name the file cannot carry."""
        return ExportOptions(
            deployment=self.deployment,
            namespace=self.namespace,
            asg=self.asg,
            backend=self.backend,
            service_class=self.service_class,
            servers=self.servers,
            max_replicas=self.max_replicas,
            direction=self.direction,
            slo_format=self.format,
            workers=self.workers,
        )


class ExportOut(BaseModel):
    """A deployable file: its text, media type, a file name to save it as, and what it sets."""

    kind: ExportKind
    content: str
    media_type: str
    filename: str
    note: str = Field(..., description="what this sets, in a sentence or two")
