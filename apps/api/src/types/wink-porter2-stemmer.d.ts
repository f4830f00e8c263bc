declare module "wink-porter2-stemmer" {
  /** Martin Porter's English stemmer, version 2. */
  export default function stem(word: string): string;
}
