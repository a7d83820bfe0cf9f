import { countText } from "../../src/lib/count-text";
import { SignInThrottled } from "../../src/services/reviewer.service";

describe("countText", () => {
  it("names one of a unit in the singular", () => {
    expect(countText(1, "second")).toBe("1 second");
  });

  it("names zero or several of a unit in the plural", () => {
    expect(countText(0, "second")).toBe("0 seconds");
    expect(countText(2, "second")).toBe("2 seconds");
  });

  it("words a one-second sign-in wait in the singular", () => {
    expect(new SignInThrottled(1).message).toBe("Too many failed sign-ins; try again in 1 second");
  });
});
