import { fold, words } from '../text.js';

/**
 * Function words and the filler of spoken requests ("I need something to…"): they say
 * nothing about which product is meant. General English, not picked per query.
 */
export const NEED_STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both
  but by can could did do does doing down during each few for from further had has have having he her here hers
  him his how i if in into is it its itself just me more most my myself no nor not now of off on once only or
  other our ours out over own same she should so some such than that the their theirs them then there these they
  this those through to too under until up very was we were what when where which while who whom why will with
  would you your yours yourself im ive id dont doesnt cant wont isnt thats theres something someone somewhere
  anything thing things stuff want wants wanted need needs needed looking look get gets getting got go going
  use used using one ones like would really please help good best great nice new way lot lots much many every
  make makes keep keeps let lets put take us also still even just maybe kind sort`.split(/\s+/),
);

/** Content words of a text, as need understanding sees them: tokenized, stopwords out, folded. */
export function contentWords(text: string): { raw: string; term: string }[] {
  return words(text)
    .filter((w) => w.length > 1 && !NEED_STOPWORDS.has(w) && !/^\d+$/.test(w))
    .map((raw) => ({ raw, term: fold(raw) }));
}
