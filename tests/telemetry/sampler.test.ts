import { randomBytes } from "node:crypto";
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags, type Context } from "@opentelemetry/api";
import { SamplingDecision } from "@opentelemetry/sdk-trace-node";
import { loadConfig } from "../../src/config";
import { samplerFor } from "../../src/telemetry/sdk";

// The sampler the SDK is given, built from the settings as the process reads them, asked as the
// SDK asks it when a span starts.
const parentWith = (flags: TraceFlags): Context =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId: randomBytes(16).toString("hex"), spanId: randomBytes(8).toString("hex"), traceFlags: flags, isRemote: true });

function decisions(env: NodeJS.ProcessEnv) {
  const sampler = samplerFor(loadConfig({ TELEMETRY: "on", ...env }).telemetry.traces);
  const decide = (parent: Context, name: string) =>
    sampler.shouldSample(parent, trace.getSpanContext(parent)?.traceId ?? randomBytes(16).toString("hex"), name, SpanKind.SERVER, {}, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
  return {
    root: decide(ROOT_CONTEXT, "GET /api/v1/briefing"),
    underSampledCaller: decide(parentWith(TraceFlags.SAMPLED), "GET /api/v1/briefing"),
    underUnsampledCaller: decide(parentWith(TraceFlags.NONE), "GET /api/v1/briefing"),
    statementAlone: decide(ROOT_CONTEXT, "prisma:client:operation"),
    statementInSampledRequest: decide(parentWith(TraceFlags.SAMPLED), "prisma:client:db_query"),
    statementInUnsampledRequest: decide(parentWith(TraceFlags.NONE), "pg.query:SELECT"),
  };
}

describe("OTEL_TRACES_SAMPLER", () => {
  it.each([
    // The specification's samplers: the plain ones ignore the caller's decision, the parent-based ones follow it.
    [{ OTEL_TRACES_SAMPLER: "always_on" }, { root: true, underSampledCaller: true, underUnsampledCaller: true }],
    [{ OTEL_TRACES_SAMPLER: "always_off" }, { root: false, underSampledCaller: false, underUnsampledCaller: false }],
    [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }, { root: false, underSampledCaller: false, underUnsampledCaller: false }],
    [{ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1" }, { root: true, underSampledCaller: true, underUnsampledCaller: true }],
    [{ OTEL_TRACES_SAMPLER: "parentbased_always_on" }, { root: true, underSampledCaller: true, underUnsampledCaller: false }],
    [{ OTEL_TRACES_SAMPLER: "parentbased_always_off" }, { root: false, underSampledCaller: true, underUnsampledCaller: false }],
    [{ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0" }, { root: false, underSampledCaller: true, underUnsampledCaller: false }],
    [{}, { root: true, underSampledCaller: true, underUnsampledCaller: false }],
  ])("with %p decides a request's span as the specification says, and a statement's by its parent alone", (env, expected) => {
    expect(decisions(env)).toEqual({ ...expected, statementAlone: false, statementInSampledRequest: true, statementInUnsampledRequest: false });
  });

  it("samples about the given share of new traces with traceidratio", () => {
    const sampler = samplerFor(loadConfig({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.25" }).telemetry.traces);
    let sampled = 0;
    for (let i = 0; i < 4000; i++) {
      const result = sampler.shouldSample(ROOT_CONTEXT, randomBytes(16).toString("hex"), "GET /api/v1/briefing", SpanKind.SERVER, {}, []);
      if (result.decision === SamplingDecision.RECORD_AND_SAMPLED) sampled++;
    }
    // 4000 draws at 0.25: the standard deviation is about 27.
    expect(sampled).toBeGreaterThan(850);
    expect(sampled).toBeLessThan(1150);
  });
});
