import { commonTitlePrefix } from '../resolve/index.js';

/** What naming a variant group reads of one member. */
export interface GroupMember {
  name: string;
  brand: { name: string } | null;
  type: { name: string } | null;
  seriesName: string | null;
}

/** What naming reads of the group itself. */
export interface GroupFacts {
  baseModel: string | null;
  /** the listings' common title prefix (resolve/variants.ts), when they have one */
  seriesName: string | null;
}

/** The value every member has, or null when they differ or one lacks it. */
function shared(values: readonly (string | null | undefined)[]): string | null {
  const first = values[0];
  if (!first) return null;
  return values.every((v) => v?.toLowerCase() === first.toLowerCase()) ? first : null;
}

/** The words of the first name that every other name also has (case ignored), in order. */
function sharedWords(names: readonly string[]): string {
  const others = names.slice(1).map((n) => new Set(n.toLowerCase().split(/\s+/)));
  return (names[0] ?? '')
    .split(/\s+/)
    .filter((w) => w !== '' && others.every((set) => set.has(w.toLowerCase())))
    .join(' ');
}

/**
 * A variant group's name, from what its members share and never from one member alone:
 * brand, series, base model and type when the group has a base model; else the listings'
 * or the names' common prefix of two words or more; else the brand, series and type every
 * member shares, with the words every name has when those say nothing; "Variant group" when
 * the members share nothing at all.
 */
export function groupName(members: readonly GroupMember[], group: GroupFacts): string {
  const first = members[0];
  if (group.baseModel && first?.brand)
    return [first.brand.name, first.seriesName, group.baseModel, first.type?.name].filter(Boolean).join(' ');
  if (group.seriesName && group.seriesName.split(/\s+/).length >= 2) return group.seriesName;
  const names = members.map((m) => m.name);
  const prefix = commonTitlePrefix(names, 2);
  if (prefix) return prefix;
  const brand = shared(members.map((m) => m.brand?.name));
  const series = shared(members.map((m) => m.seriesName));
  const type = shared(members.map((m) => m.type?.name));
  const parts = [brand, series, group.baseModel, type].filter((p): p is string => !!p);
  if (parts.length >= 2 || (parts.length === 1 && !sharedWords(names))) return parts.join(' ');
  return sharedWords(names) || parts.join(' ') || 'Variant group';
}
