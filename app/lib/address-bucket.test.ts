import { describe, expect, it } from "vitest";
import { addressBucket } from "./address-bucket";

describe("addressBucket", () => {
  it("keeps an IPv4 address whole, also when written as IPv6", () => {
    expect(addressBucket("201.141.20.7")).toBe("201.141.20.7");
    expect(addressBucket("::ffff:201.141.20.7")).toBe("201.141.20.7");
  });

  it("cuts IPv6 to its /64: two addresses of one phone share a bucket, neighbours do not", () => {
    const a = addressBucket("2806:2f0:9020:1a2b:1111:2222:3333:4444");
    expect(a).toBe("2806:2f0:9020:1a2b::/64");
    expect(addressBucket("2806:02f0:9020:1a2b::1")).toBe(a);
    expect(addressBucket("2806:2f0:9020:1a2c::1")).not.toBe(a);
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
  });

  it("leaves anything that is not an address as it is", () => {
    expect(addressBucket("desconocida")).toBe("desconocida");
  });
});
