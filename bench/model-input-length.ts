import { LocalEmbeddings } from "../src/embeddings/local-embeddings";

const cosineOf = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

// Where does the local model stop reading? Embeds growing prefixes of one long, varied text and
// compares each with the embedding of the whole: once a prefix's vector equals the whole text's,
// the characters after it change nothing and can be cut before embedding (they only cost time).

const SENTENCES = [
  "Revenue from enterprise accounts in EMEA fell by twelve percent after the price change.",
  "Churn among self-serve users doubled during the holidays, mostly on monthly plans.",
  "Support tickets about invoices spiked when the billing page was redesigned.",
  "Advertising spend in APAC rose while trial conversions stayed flat.",
  "Gross margin recovered in Germany once the warehouse contract was renegotiated.",
  "Active users on mobile stalled since the onboarding flow added a verification step.",
  "Refunds in Brazil halved after the courier was replaced in the second quarter.",
  "Order volume in Japan dropped sharply for new cohorts acquired through partners.",
];

export async function measureModelInputLength(): Promise<Array<{ chars: number; similarity: number; ms: number }>> {
  // No cut: this measures the model itself.
  const embeddings = new LocalEmbeddings({ maxInputChars: Number.POSITIVE_INFINITY });
  // No sentence repeats, so a model that averaged over all its input would keep changing.
  const whole = Array.from({ length: 160 }, (_, i) => `${SENTENCES[i % SENTENCES.length]!.replace(".", "")} in week ${i + 1}.`).join(" ");
  const lengths = [100, 200, 300, 350, 400, 450, 500, 600, 800, 1000, 2000, 4000, 8000, 16000];
  // The reference is the longest text the model could possibly read here.
  const [reference] = await embeddings.embed([whole]);
  const rows = [];
  for (const chars of lengths) {
    const started = process.hrtime.bigint();
    const [vector] = await embeddings.embed([whole.slice(0, chars)]);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    rows.push({ chars, similarity: cosineOf(vector!, reference!), ms });
  }
  await embeddings.close();
  return rows;
}

if (require.main === module) {
  measureModelInputLength().then((rows) => {
    console.log(`whole text: ${rows.length} prefixes`);
    for (const row of rows) console.log(`${String(row.chars).padStart(6)} chars  cosine to whole ${row.similarity.toFixed(6)}  ${row.ms.toFixed(0)} ms`);
  });
}
