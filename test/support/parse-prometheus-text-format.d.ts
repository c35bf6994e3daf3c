// The Prometheus text-format parser the metrics test reads scrapes with (it ships no types).
declare module "parse-prometheus-text-format" {
  interface Sample {
    readonly value?: string;
    readonly labels?: Record<string, string>;
    readonly buckets?: Record<string, string>;
  }
  interface Family {
    readonly name: string;
    readonly help: string;
    readonly type: string;
    readonly metrics: readonly Sample[];
  }
  export default function parse(text: string): Family[];
}
