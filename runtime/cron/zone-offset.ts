// A zone's UTC offset at one instant, read from Intl: what the offset table is built from. Reads
// `format`'s string (about a third of the cost of `formatToParts`, which builds an object per part),
// taking its six numbers in the order `formatToParts` reports once for the zone.
import { daysFromCivil, SECONDS_PER_DAY } from "./calendar.js";

const FIELDS = ["year", "month", "day", "hour", "minute", "second"] as const;

export class ZoneOffsetReader {
  private readonly format: Intl.DateTimeFormat;
  /** `order[i]`: which of the numbers in the text is FIELDS[i]. */
  private readonly order: readonly number[];
  private readonly numbers = [0, 0, 0, 0, 0, 0];

  constructor(zone: string) {
    this.format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    const types: string[] = this.format.formatToParts(0).map((part) => part.type).filter((type) => (FIELDS as readonly string[]).includes(type));
    this.order = FIELDS.map((field) => types.indexOf(field));
  }

  /** Seconds east of UTC at UTC second `utcSecond`. */
  offsetAt(utcSecond: number): number {
    const text = this.format.format(utcSecond * 1000);
    const numbers = this.numbers;
    numbers.fill(0);
    let index = -1;
    let inNumber = false;
    for (let i = 0; i < text.length; i++) {
      const digit = text.charCodeAt(i) - 48;
      if (digit >= 0 && digit <= 9) {
        if (!inNumber) index++;
        inNumber = true;
        numbers[index] = numbers[index]! * 10 + digit;
      } else {
        inNumber = false;
      }
    }
    const at = this.order;
    const days = daysFromCivil(numbers[at[0]!]!, numbers[at[1]!]!, numbers[at[2]!]!);
    return days * SECONDS_PER_DAY + numbers[at[3]!]! * 3600 + numbers[at[4]!]! * 60 + numbers[at[5]!]! - utcSecond;
  }
}
